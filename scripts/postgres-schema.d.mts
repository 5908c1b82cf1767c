export function postgresSchemaOf(sqlite: string): string;
export function writePostgresSchema(root: string): boolean;
