import { ProductList } from '../../contract/products';
import { http } from './http';

export type Product = Awaited<ReturnType<typeof listProducts>>[number];

export function listProducts() {
  return http.get('products', ProductList);
}
