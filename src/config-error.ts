/** A setting is missing or wrong: the server does not start, and the message says which and why. */
export class ConfigError extends Error {}
