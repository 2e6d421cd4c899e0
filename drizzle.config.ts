import { defineConfig } from 'drizzle-kit';

// Generates SQL migrations from the schema; it never connects to a database.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/index.ts',
  out: './migrations',
  casing: 'snake_case',
});
