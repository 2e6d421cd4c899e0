import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_CSV_COLUMNS, EXPORT_NAMES } from '#shared/contracts/insights.ts';
import { queryRows } from '#server/db/client.ts';
import { createTestApp, signUp, type Agent, type TestApp } from '#tests/helpers/test-app.ts';
import { auditEntriesFor, signInAdmin } from '../admin/testing/admin-agent.ts';

/**
 * The CSV exports of docs/operator-tools.md (issue 22): each file's rows for a range of UTC days,
 * with money as exact decimal dollars, quoting done by the CSV writer, formulas defused; and the
 * transfers file streamed from a cursor, so 100,000 transfers pass through the server without it
 * holding the file.
 */

let t: TestApp;
let admin: Agent;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp();
  ({ agent: admin, id: adminId } = await signInAdmin(t));
});
afterAll(async () => {
  await t.close();
});

/** V8's collector, which the test process does not expose by default. */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const csvOf = (body: string): string[][] => parse(body, { relax_column_count: false });

describe('the CSV exports', () => {
  it('writes each transfer’s postings with quoting, two decimals and defused formulas', async () => {
    const { user } = await signUp(t.app);
    const db = t.database.db;
    await db.execute(sql`insert into ledger_accounts (key, kind, user_id, allow_negative)
      values ('export:a', 'house', null, true), ('export:b', 'house', null, true)`);
    const transfer = async (key: string, at: string, memo: string, cents: number) => {
      await db.execute(sql`insert into ledger_transfers (idempotency_key, kind, payload_hash, memo,
          created_at) values (${key}, 'adjustment', 'h', ${memo}, ${at}::timestamptz)`);
      await db.execute(sql`insert into ledger_postings (transfer_id, account_id, amount_cents,
          balance_after_cents, created_at)
        select t.id, a.id, case a.key when 'export:a' then ${-cents}::bigint else ${cents}::bigint end,
          0, ${at}::timestamptz
        from ledger_transfers t, ledger_accounts a
        where t.idempotency_key = ${key} and a.key in ('export:a', 'export:b')`);
    };
    await transfer('export:before', '2024-02-29T23:59:59Z', 'too early', 100);
    await transfer('export:first', '2024-03-01T00:00:00Z', 'Refund, "goodwill"\nsecond line', 5);
    await transfer('export:second', '2024-03-02T23:59:59.5Z', '=HYPERLINK("x")', 123_456);
    await transfer('export:after', '2024-03-03T00:00:00Z', 'too late', 100);
    await db.execute(sql`insert into payments (provider, method, provider_payment_id, user_id,
        requested_amount_cents, currency, status, provider_status, created_at)
      values ('sandbox-card', 'card', 'pi_export', ${user.id}, 2050, 'usd', 'pending', 'open',
        '2024-03-01T12:00:00Z')`);
    await db.execute(sql`insert into payouts (user_id, amount_cents, status, stage, payment_method,
        payment_details, phone_number, failure_reason, decided_by, decided_at, created_at)
      values (${user.id}, 1001, 'failed', 'failed', 'paypal', 'p@example.com', '5550100000',
        '@bad, address', ${adminId}, '2024-03-02T10:00:00Z', '2024-03-02T09:00:00Z')`);

    const response = await admin.get(
      '/api/admin/exports/transfers.csv?from=2024-03-01&to=2024-03-02',
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="skillstake-transfers-2024-03-01-to-2024-03-02.csv"',
    );
    const [header, ...rows] = csvOf(response.body);
    expect(header).toEqual([...EXPORT_CSV_COLUMNS.transfers]);
    const column = (name: (typeof EXPORT_CSV_COLUMNS.transfers)[number]) =>
      EXPORT_CSV_COLUMNS.transfers.indexOf(name);
    expect(
      rows.map((row) => [
        row[column('idempotency_key')],
        row[column('account')],
        row[column('amount')],
      ]),
    ).toEqual([
      ['export:first', 'export:a', '-0.05'],
      ['export:first', 'export:b', '0.05'],
      ['export:second', 'export:a', '-1234.56'],
      ['export:second', 'export:b', '1234.56'],
    ]);
    expect(rows[0]?.[column('memo')]).toBe('Refund, "goodwill"\nsecond line');
    expect(rows[0]?.[column('created_at')]).toBe('2024-03-01T00:00:00.000Z');
    expect(rows[2]?.[column('memo')]).toBe(`'=HYPERLINK("x")`);
    // The writer quoted the memo with a comma, quotes and a line break, doubling the quotes.
    expect(response.body).toContain('"Refund, ""goodwill""\nsecond line"');

    const payments = csvOf(
      (await admin.get('/api/admin/exports/payments.csv?from=2024-03-01&to=2024-03-02')).body,
    );
    expect(payments).toEqual([
      [...EXPORT_CSV_COLUMNS.payments],
      [
        expect.any(String),
        '2024-03-01T12:00:00.000Z',
        String(user.id),
        user.username,
        'sandbox-card',
        'card',
        'pi_export',
        'pending',
        '20.50',
        '',
        '',
      ],
    ]);
    const payouts = csvOf(
      (await admin.get('/api/admin/exports/payouts.csv?from=2024-03-01&to=2024-03-02')).body,
    );
    expect(payouts).toEqual([
      [...EXPORT_CSV_COLUMNS.payouts],
      [
        expect.any(String),
        '2024-03-02T09:00:00.000Z',
        String(user.id),
        user.username,
        'paypal',
        'failed',
        '10.01',
        '2024-03-02T10:00:00.000Z',
        '',
        `'@bad, address`,
      ],
    ]);
    const tax = csvOf(
      (await admin.get('/api/admin/exports/tax.csv?from=2024-03-01&to=2024-03-02')).body,
    );
    expect(tax).toEqual([[...EXPORT_CSV_COLUMNS.tax]]);

    const audited = await auditEntriesFor(
      t.database,
      { type: 'export', id: 'payouts' },
      'insights.export',
    );
    expect(audited[0]).toMatchObject({
      actorUserId: adminId,
      details: { from: '2024-03-01', to: '2024-03-02' },
    });
  });

  it('is for admins only, and refuses a backwards range', async () => {
    const { agent } = await signUp(t.app);
    for (const name of EXPORT_NAMES) {
      expect((await agent.get(`/api/admin/exports/${name}.csv`)).statusCode).toBe(403);
    }
    const backwards = await admin.get(
      '/api/admin/exports/payments.csv?from=2024-03-02&to=2024-03-01',
    );
    expect(backwards.statusCode).toBe(400);
  });

  it('streams 100,000 transfers from a cursor without holding the file', async () => {
    const db = t.database.db;
    await db.execute(sql`insert into ledger_accounts (key, kind, user_id, allow_negative)
      values ('bulk:a', 'house', null, true), ('bulk:b', 'house', null, true)`);
    await db.execute(sql`insert into ledger_transfers (idempotency_key, kind, payload_hash, memo,
        created_at)
      select 'bulk:' || g, 'adjustment', 'h', 'Bulk, row ' || g,
        '2025-06-01T00:00:00Z'::timestamptz + (g || ' seconds')::interval
      from generate_series(1, 100000) g`);
    await db.execute(sql`insert into ledger_postings (transfer_id, account_id, amount_cents,
        balance_after_cents, created_at)
      select t.id, a.id, case a.key when 'bulk:a' then -(t.id % 100000 + 1) else t.id % 100000 + 1 end,
        0, t.created_at
      from ledger_transfers t cross join ledger_accounts a
      where t.idempotency_key like 'bulk:%' and a.key in ('bulk:a', 'bulk:b')`);
    const [counted] = await queryRows<{ postings: number }>(
      db,
      sql`select count(*)::int as postings from ledger_postings p
        join ledger_transfers t on t.id = p.transfer_id where t.idempotency_key like 'bulk:%'`,
    );
    expect(counted?.postings).toBe(200_000);

    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const cookie = admin.sessionCookie;
    if (!cookie) throw new Error('the admin is not signed in');
    const response = await fetch(
      `${address}/api/admin/exports/transfers.csv?from=2025-06-01&to=2025-06-02`,
      { headers: { cookie: `sid=${cookie}` } },
    );
    expect(response.status).toBe(200);
    if (!response.body) throw new Error('no body');

    // The client keeps nothing but counts: what stays alive on the heap is the server's. Garbage
    // is collected before each look, so only what the server holds on to is measured.
    const liveHeap = () => {
      collectGarbage();
      return process.memoryUsage().heapUsed;
    };
    const baseline = liveHeap();
    let peak = baseline;
    let chunks = 0;
    let bytes = 0;
    let lines = 0;
    let tail = '';
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const chunk = read.value;
      bytes += chunk.byteLength;
      const text = tail + decoder.decode(chunk, { stream: true });
      const parts = text.split('\n');
      tail = parts.pop() ?? '';
      lines += parts.length;
      chunks += 1;
      if (chunks % 100 === 0) peak = Math.max(peak, liveHeap());
    }
    expect(tail).toBe('');
    // The header and one line per posting.
    expect(lines).toBe(200_001);
    expect(bytes).toBeGreaterThan(15_000_000);
    // Built whole, the file alone would outgrow this many times over (it measured 0.5 MB live at
    // most, for a 20 MB file).
    expect(peak - baseline).toBeLessThan(bytes / 4);
  }, 120_000);
});
