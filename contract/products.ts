import { Schema } from 'effect';

// The catalogue of products a project can enable (spec 000 §3 Product, 001 §1).

export const PRODUCT_SLUGS = ['clickhouse', 'grafana', 'hepic', 'loggen', 'qryn'] as const;
export type ProductSlug = (typeof PRODUCT_SLUGS)[number];

export const Product = Schema.Struct({
  id: Schema.Number,
  name: Schema.String,
  slug: Schema.String,
  description: Schema.String,
  is_available: Schema.Boolean,
  tags: Schema.Array(Schema.String),
  dependencies: Schema.Array(Schema.String),
});
export type Product = typeof Product.Type;
export const ProductList = Schema.Array(Product);

/** GET users/products: each product enabled in at least one project the user can see, with those projects. */
export const UserProduct = Schema.Struct({
  ...Product.fields,
  projects: Schema.Array(
    Schema.Struct({ id: Schema.Number, name: Schema.String, slug: Schema.String, status: Schema.String }),
  ),
});
export type UserProduct = typeof UserProduct.Type;
export const UserProductList = Schema.Array(UserProduct);
