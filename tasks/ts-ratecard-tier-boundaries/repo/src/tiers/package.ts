/** Package pricing: whole packages of `size` units, rounded up. */
export function packageCost(size: number, packagePrice: number, quantity: number): number {
  return Math.ceil(quantity / size) * packagePrice;
}
