/** Removes keys whose value is undefined, in place: the wire never carries null or absent-as-null. */
export function omitUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) {
    if (value[key] === undefined) delete value[key];
  }
  return value;
}
