/** OpenAPI tag of the Calls API routes. */
export const TAGS = ['Calls'];

/** Infobip's PageInfo. */
export const paging = (page: number, size: number, total: number) => ({
  page,
  size,
  totalPages: Math.ceil(total / size),
  totalResults: total,
});
