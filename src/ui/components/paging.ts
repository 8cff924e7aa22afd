/** Number of pages for `total` rows; at least 1 so an empty list reads "1 of 1". */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
