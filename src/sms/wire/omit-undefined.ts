/**
 * `value` without its undefined-valued keys: the wire never carries null or absent-as-null. A copy,
 * not a `delete` in place: deleting a property turns an object into a slow dictionary, which JSON
 * text is then made from more slowly, and that for every report and webhook rendered.
 */
export function omitUndefined<T extends object>(value: T): T {
  const kept = {} as T;
  for (const key in value) {
    const field = value[key];
    if (field !== undefined) kept[key] = field;
  }
  return kept;
}
