/**
 * `value` without its undefined-valued keys: the wire never carries null or absent-as-null, and a
 * row read back equals the object that was written (optional fields absent rather than
 * present-but-undefined). A copy, not a `delete` in place: deleting a property turns an object into
 * a slow dictionary, which every later read of it and the JSON text made from it pay for, and this
 * runs for every report rendered and every row read.
 */
export function omitUndefined<T extends object>(value: T): T {
  const kept = {} as T;
  for (const key in value) {
    const field = value[key];
    if (field !== undefined) kept[key] = field;
  }
  return kept;
}
