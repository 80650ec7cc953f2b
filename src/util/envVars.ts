/** Environment variables as the CLI edge hands them down; nothing below src/cli/ reads process.env. */
export type Environment = Readonly<Record<string, string | undefined>>;
