/** One versioned schema change. Versions sort lexicographically, so they are zero-padded. */
export interface Migration {
  version: string;
  name: string;
  sql: string;
}
