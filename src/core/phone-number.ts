/** A number as stored and compared: surrounding spaces and one leading `+` removed. */
export const normalizeNumber = (value: string): string => {
  const trimmed = value.trim();
  return trimmed.startsWith('+') ? trimmed.slice(1) : trimmed;
};
