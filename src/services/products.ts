import { ProductList, UserProductList } from '../../contract/products';
import { http } from './http';

export type Product = Awaited<ReturnType<typeof listProducts>>[number];
export type UserProduct = Awaited<ReturnType<typeof listUserProducts>>[number];

export function listProducts() {
  return http.get('products', ProductList);
}

export function listUserProducts() {
  return http.get('users/products', UserProductList);
}
