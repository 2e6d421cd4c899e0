import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Database } from '#server/db/client.ts';
import * as schema from '#server/db/schema/index.ts';

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

function sequentialScans(node: PlanNode): string[] {
  const here = node['Node Type'] === 'Seq Scan' ? [node['Relation Name'] ?? '?'] : [];
  return [...here, ...(node.Plans ?? []).flatMap(sequentialScans)];
}

/**
 * The tables read by sequential scan in every plan `work` executed, each with its statement for
 * the report. The work runs on one connection of `pool` with auto_explain logging the plan of
 * each statement to the client: the application's statements, and those that run inside the
 * database's functions (the money calls) and constraint triggers, which an EXPLAIN of the
 * application's statements would not show. PostgreSQL only.
 */
export async function seqScansOf(
  pool: pg.Pool,
  work: (db: Database) => Promise<unknown>,
): Promise<string[]> {
  const client = await pool.connect();
  const plans: Array<{ 'Query Text': string; Plan: PlanNode }> = [];
  const collect = (notice: { message?: string }) => {
    const json = notice.message?.indexOf('{') ?? -1;
    if (notice.message?.startsWith('duration:') && json >= 0) {
      plans.push(JSON.parse(notice.message.slice(json)));
    }
  };
  try {
    await client.query(`load 'auto_explain'`);
    await client.query(`set auto_explain.log_min_duration = 0;
      set auto_explain.log_nested_statements = on; set auto_explain.log_format = json;
      set client_min_messages = log`);
    client.on('notice', collect);
    await work(drizzle({ client, schema, casing: 'snake_case' }));
  } finally {
    client.off('notice', collect);
    await client.query('reset client_min_messages; reset auto_explain.log_min_duration');
    client.release();
  }
  if (plans.length === 0) throw new Error('the work ran no statement whose plan was logged');
  return plans.flatMap((plan) =>
    sequentialScans(plan.Plan).map((table) => `${table} in: ${plan['Query Text']}`),
  );
}
