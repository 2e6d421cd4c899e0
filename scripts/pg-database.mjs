// Creates or drops a PostgreSQL database: `node scripts/pg-database.mjs create|drop <admin-url> <name>`.
// CI uses it to give the PostgreSQL test run a database of its own.
import pg from 'pg';

const [action, adminUrl, name] = process.argv.slice(2);
if (
  !['create', 'drop'].includes(action ?? '') ||
  !adminUrl ||
  !/^[a-z_][a-z0-9_]*$/.test(name ?? '')
) {
  process.stderr.write('usage: pg-database.mjs create|drop <admin-url> <lowercase_name>\n');
  process.exit(2);
}
const client = new pg.Client({ connectionString: adminUrl });
await client.connect();
try {
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  if (action === 'create') await client.query(`CREATE DATABASE ${name}`);
} finally {
  await client.end();
}
