import { sql, type SQL } from 'drizzle-orm';
import type { EXPORT_CSV_COLUMNS, ExportName } from '#shared/contracts/insights.ts';
import { centsToDecimalString } from '#shared/money.ts';
import { cursorRows, type DatabaseHandle } from '../../db/client.ts';
import { spreadsheetText } from '../../lib/spreadsheet-text.ts';
import { streamTaxReport } from './tax-report.ts';
import { rangeBounds, type DayRange } from './overview.ts';
import { debtCentsOf, transfersQuery } from '../ledger/index.ts';
import { utcIso } from '../../lib/sql-time.ts';

/** One CSV record: the fields of `EXPORT_CSV_COLUMNS[name]`, money as exact decimal dollars. */
export type CsvRecord = Record<string, string | number>;

const centsText = (cents: string | null): string =>
  cents === null ? '' : centsToDecimalString(BigInt(cents));

interface TransferRow {
  transfer_id: string;
  created_at: string;
  kind: string;
  idempotency_key: string;
  reference_type: string | null;
  reference_id: string | null;
  reverses_transfer_id: string | null;
  memo: string | null;
  posting_id: string;
  account: string;
  amount_cents: string;
  balance_after_cents: string;
}

/** The player's name, looked up by id for each row of a range (see `transfersQuery`). */
const usernameOf = (userId: SQL) => sql`(select u.username from users u where u.id = ${userId})`;

function toTransferRecord(row: TransferRow): CsvRecord {
  return {
    transfer_id: row.transfer_id,
    created_at: row.created_at,
    kind: row.kind,
    idempotency_key: row.idempotency_key,
    reference_type: row.reference_type ?? '',
    reference_id: row.reference_id ?? '',
    reverses_transfer_id: row.reverses_transfer_id ?? '',
    memo: spreadsheetText(row.memo),
    posting_id: row.posting_id,
    account: row.account,
    amount: centsText(row.amount_cents),
    balance_after: centsText(row.balance_after_cents),
  };
}

interface PaymentRow {
  payment_id: number;
  created_at: string;
  user_id: number;
  username: string;
  provider: string;
  method: string;
  provider_payment_id: string;
  status: string;
  requested_cents: string;
  credited_cents: string | null;
  credited_at: string | null;
}

export function paymentsQuery(start: string, end: string): SQL {
  return sql`
    select p.id as payment_id, ${utcIso(sql`p.created_at`)} as created_at, p.user_id,
      ${usernameOf(sql`p.user_id`)} as username,
      p.provider, p.method, p.provider_payment_id, p.status,
      p.requested_amount_cents::text as requested_cents,
      p.credited_amount_cents::text as credited_cents, ${utcIso(sql`p.credited_at`)} as credited_at
    from payments p
    where p.created_at >= ${start}::timestamptz and p.created_at < ${end}::timestamptz
    order by p.created_at, p.id`;
}

function toPaymentRecord(row: PaymentRow): CsvRecord {
  return {
    payment_id: Number(row.payment_id),
    created_at: row.created_at,
    user_id: Number(row.user_id),
    username: spreadsheetText(row.username),
    provider: row.provider,
    method: row.method,
    provider_payment_id: spreadsheetText(row.provider_payment_id),
    status: row.status,
    requested: centsText(row.requested_cents),
    credited: centsText(row.credited_cents),
    credited_at: row.credited_at ?? '',
  };
}

interface PayoutRow {
  payout_id: number;
  created_at: string;
  user_id: number;
  username: string;
  method: string;
  status: string;
  amount_cents: string;
  decided_at: string | null;
  completed_at: string | null;
  failure_reason: string | null;
}

export function payoutsQuery(start: string, end: string): SQL {
  return sql`
    select p.id as payout_id, ${utcIso(sql`p.created_at`)} as created_at, p.user_id,
      ${usernameOf(sql`p.user_id`)} as username,
      p.payment_method as method, p.status, p.amount_cents::text as amount_cents,
      ${utcIso(sql`p.decided_at`)} as decided_at, ${utcIso(sql`p.completed_at`)} as completed_at,
      p.failure_reason
    from payouts p
    where p.created_at >= ${start}::timestamptz and p.created_at < ${end}::timestamptz
    order by p.created_at, p.id`;
}

function toPayoutRecord(row: PayoutRow): CsvRecord {
  return {
    payout_id: Number(row.payout_id),
    created_at: row.created_at,
    user_id: Number(row.user_id),
    username: spreadsheetText(row.username),
    method: row.method,
    status: row.status,
    amount: centsText(row.amount_cents),
    decided_at: row.decided_at ?? '',
    completed_at: row.completed_at ?? '',
    failure_reason: spreadsheetText(row.failure_reason),
  };
}

interface ChargebackRow {
  dispute_id: string;
  created_at: string;
  user_id: number;
  username: string;
  payment_id: number;
  amount_cents: string;
  reason: string;
  status: string;
  outcome: string;
  evidence_submitted_at: string | null;
  closed_at: string | null;
  debt_cents: string;
}

/** Card disputes opened in the range, with what their player owes now (docs/chargebacks.md). */
export function chargebacksQuery(start: string, end: string): SQL {
  return sql`
    select d.provider_dispute_id as dispute_id, ${utcIso(sql`d.created_at`)} as created_at,
      d.user_id, ${usernameOf(sql`d.user_id`)} as username, d.payment_id,
      d.amount_cents::text as amount_cents, d.reason, d.provider_status as status, d.outcome,
      ${utcIso(sql`d.evidence_submitted_at`)} as evidence_submitted_at,
      ${utcIso(sql`d.closed_at`)} as closed_at, ${debtCentsOf(sql`d.user_id`)}::text as debt_cents
    from card_disputes d
    where d.created_at >= ${start}::timestamptz and d.created_at < ${end}::timestamptz
    order by d.created_at, d.id`;
}

function toChargebackRecord(row: ChargebackRow): CsvRecord {
  return {
    dispute_id: spreadsheetText(row.dispute_id),
    created_at: row.created_at,
    user_id: Number(row.user_id),
    username: spreadsheetText(row.username),
    payment_id: Number(row.payment_id),
    amount: centsText(row.amount_cents),
    reason: spreadsheetText(row.reason),
    status: spreadsheetText(row.status),
    outcome: row.outcome,
    evidence_submitted_at: row.evidence_submitted_at ?? '',
    closed_at: row.closed_at ?? '',
    debt_now: centsText(row.debt_cents),
  };
}

async function* mapRows<T>(
  batches: AsyncGenerator<T[], void, undefined>,
  toRecord: (row: T) => CsvRecord,
): AsyncGenerator<CsvRecord, void, undefined> {
  for await (const rows of batches) for (const row of rows) yield toRecord(row);
}

/**
 * The records of one export, read from a database cursor a batch at a time: however large the
 * range, the server holds one batch (docs/operator-tools.md). The tax list is the tax report's own
 * rows for the range, at `taxThresholdCents`.
 */
export function streamExport(
  database: DatabaseHandle,
  name: ExportName,
  range: DayRange,
  taxThresholdCents: bigint,
  batchSize = 500,
): AsyncGenerator<CsvRecord, void, undefined> {
  const { start, end } = rangeBounds(range);
  switch (name) {
    case 'transfers':
      return mapRows(
        cursorRows<TransferRow>(database, transfersQuery(start, end), batchSize),
        toTransferRecord,
      );
    case 'payments':
      return mapRows(
        cursorRows<PaymentRow>(database, paymentsQuery(start, end), batchSize),
        toPaymentRecord,
      );
    case 'payouts':
      return mapRows(
        cursorRows<PayoutRow>(database, payoutsQuery(start, end), batchSize),
        toPayoutRecord,
      );
    case 'chargebacks':
      return mapRows(
        cursorRows<ChargebackRow>(database, chargebacksQuery(start, end), batchSize),
        toChargebackRecord,
      );
    case 'tax':
      return (async function* () {
        for await (const entry of streamTaxReport(
          database,
          { from: new Date(start), to: new Date(end) },
          taxThresholdCents,
          batchSize,
        )) {
          yield {
            user_id: entry.userId,
            username: spreadsheetText(entry.username),
            email: spreadsheetText(entry.email),
            account_closed: entry.accountClosed ? 'yes' : 'no',
            prizes: entry.prizes,
            prizes_credited: centsToDecimalString(entry.prizeCents),
            stakes: centsToDecimalString(entry.stakeCents),
            net_winnings: centsToDecimalString(entry.netCents),
          } satisfies Record<(typeof EXPORT_CSV_COLUMNS)['tax'][number], string | number>;
        }
      })();
  }
}
