import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  TAX_REPORT_CSV_COLUMNS,
  taxReportFileName,
  taxReportQuerySchema,
  taxReportSchema,
  type TaxReportRow,
} from '#shared/contracts/tax-report.ts';
import { centsToDecimalString, centsToDollarNumber } from '#shared/money.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import { spreadsheetText } from '../../lib/spreadsheet-text.ts';
import { requireUser } from '../../plugins/access.ts';
import { recordAudit } from '../audit/index.ts';
import {
  listTaxReport,
  streamTaxReport,
  taxYear,
  type TaxReportEntry,
  type TaxYear,
} from '../insights/index.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
};

function toRow(entry: TaxReportEntry): TaxReportRow {
  return {
    userId: entry.userId,
    username: entry.username,
    email: entry.email,
    accountClosed: entry.accountClosed,
    prizes: entry.prizes,
    prizesCredited: centsToDollarNumber(entry.prizeCents),
    stakes: centsToDollarNumber(entry.stakeCents),
    netWinnings: centsToDollarNumber(entry.netCents),
  };
}

/** One CSV record, its fields in `TAX_REPORT_CSV_COLUMNS` order; money as exact decimal dollars. */
function toCsvRecord(year: number, entry: TaxReportEntry): Record<string, string | number> {
  return {
    year,
    user_id: entry.userId,
    username: spreadsheetText(entry.username),
    email: spreadsheetText(entry.email),
    account_closed: entry.accountClosed ? 'yes' : 'no',
    prizes: entry.prizes,
    prizes_credited: centsToDecimalString(entry.prizeCents),
    stakes: centsToDecimalString(entry.stakeCents),
    net_winnings: centsToDecimalString(entry.netCents),
  };
}

/**
 * The tax report of docs/responsible-play.md: a year's players at or above `TAX_REPORT_THRESHOLD`.
 */
export const adminTaxReportRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const yearOf = (query: { year?: number | undefined }): TaxYear =>
      taxYear(query.year ?? ctx.clock().getUTCFullYear());
    const thresholdCents = ctx.env.TAX_REPORT_THRESHOLD;

    app.get(
      '/api/admin/tax-report',
      {
        config: { access: 'admin' },
        schema: {
          querystring: taxReportQuerySchema,
          response: { 200: taxReportSchema, ...errors },
        },
      },
      async (request) => {
        const year = yearOf(request.query);
        const entries = await listTaxReport(ctx.db, year, thresholdCents);
        return {
          year: year.year,
          threshold: centsToDollarNumber(thresholdCents),
          from: year.from.toISOString(),
          to: year.to.toISOString(),
          players: entries.map(toRow),
        };
      },
    );

    app.get(
      '/api/admin/tax-report.csv',
      {
        config: { access: 'admin' },
        schema: {
          querystring: taxReportQuerySchema,
          // The file itself: a stream, which Fastify sends as it is, without serializing.
          response: { 200: z.custom<Readable>(), ...errors },
        },
      },
      async (request, reply) => {
        const admin = requireUser(request);
        const year = yearOf(request.query);
        const entries = streamTaxReport(ctx.database, year, thresholdCents);
        let first: IteratorResult<TaxReportEntry, void>;
        try {
          // The query runs on the first pull: a database failure is still a proper error
          // answer rather than a download that breaks off after its headers.
          first = await entries.next();
          // The rows hold the players' names and addresses: who took them out, and when, is
          // kept.
          await recordAudit(ctx.db, {
            actorUserId: admin.id,
            action: 'tax_report.export',
            target: { type: 'tax_report', id: year.year },
            details: { year: year.year, thresholdCents: thresholdCents.toString() },
          });
        } catch (error) {
          await entries.return();
          throw error;
        }
        request.log.info({ adminId: admin.id, year: year.year }, 'tax report exported');

        async function* records() {
          if (first.done) return;
          yield toCsvRecord(year.year, first.value);
          for await (const entry of entries) yield toCsvRecord(year.year, entry);
        }
        const csv = stringify({ header: true, columns: [...TAX_REPORT_CSV_COLUMNS] });
        // A failure half-way (the database gone) destroys the response: the browser reports a
        // failed download rather than keeping a file that silently lacks rows.
        pipeline(Readable.from(records()), csv, (error) => {
          if (error) request.log.error({ err: error }, 'tax report export failed');
        });
        // However the answer ends (finished, the browser gone, an error), the cursor is closed
        // and its connection given back: return() on a generator not yet started or already
        // done does nothing, and on one paused at a row it runs its clean-up.
        reply.raw.once('close', () => {
          entries.return().catch((error: unknown) => {
            request.log.warn({ err: error }, 'the tax report cursor did not close');
          });
        });
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${taxReportFileName(year.year)}"`)
          .send(csv);
      },
    );
  };
