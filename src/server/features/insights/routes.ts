import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DEVICE_LINK_MESSAGES } from '#shared/contracts/account-security.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  EXPORT_CSV_COLUMNS,
  EXPORT_NAMES,
  INSIGHTS_DEFAULT_RANGE_DAYS,
  INSIGHTS_MESSAGES,
  INSIGHTS_RANGE_DAYS_MAX,
  addDays,
  adminNoteBodySchema,
  adminNoteSchema,
  clearLinkBodySchema,
  dayOf,
  daysInRange,
  exportFileName,
  insightsRangeQuerySchema,
  overviewSchema,
  playerIdParamsSchema,
  playerPageSchema,
  riskSchema,
  type Overview,
  type Risk,
} from '#shared/contracts/insights.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { requireUser } from '../../plugins/access.ts';
import { clearAccountLink } from '../accounts/index.ts';
import { recordAudit } from '../audit/index.ts';
import { outstandingDebts } from '../ledger/index.ts';
import { streamExport, type CsvRecord } from './exports.ts';
import { buildOverview, disputeRate, type DayRange, type OverviewFigures } from './overview.ts';
import { addAdminNote, loadPlayerPage } from './player-page.ts';
import {
  findLopsidedPairs,
  findSharedDevices,
  findSharedNetworks,
  findUnplayedWithdrawals,
  riskSettingsOf,
} from '../risk/index.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

/** The figures as the API shows them: dollars as numbers, the dispute rate as a fraction. */
function toFigures(figures: OverviewFigures): Omit<Overview, 'from' | 'to' | 'daily' | 'debts'> {
  return {
    stakesVolume: centsToDollarNumber(figures.stakesVolumeCents),
    feesEarned: centsToDollarNumber(figures.feesEarnedCents),
    deposits: centsToDollarNumber(figures.depositsCents),
    payouts: centsToDollarNumber(figures.payoutsCents),
    netHousePosition: centsToDollarNumber(figures.netHousePositionCents),
    activePlayers: figures.activePlayers,
    registrations: figures.registrations,
    completedChallenges: figures.completedChallenges,
    disputeRate: disputeRate(figures),
  };
}

/**
 * Operator insights (docs/operator-tools.md): the overview, the CSV exports, the risk signals, the
 * players.
 */
export const insightsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    /**
     * The range asked for, with what is left out filled in: up to today (UTC), and the 30 days
     * that end on its last day. A range the defaults turn backwards or too long is refused.
     */
    const rangeOf = (query: { from?: string | undefined; to?: string | undefined }): DayRange => {
      const to = query.to ?? dayOf(ctx.clock());
      const from = query.from ?? addDays(to, 1 - INSIGHTS_DEFAULT_RANGE_DAYS);
      if (from > to || daysInRange(from, to) > INSIGHTS_RANGE_DAYS_MAX) {
        throw new AppError('VALIDATION_FAILED', INSIGHTS_MESSAGES.rangeInvalid, {
          fields: { to: INSIGHTS_MESSAGES.rangeInvalid },
        });
      }
      return { from, to };
    };

    app.get(
      '/api/admin/overview',
      {
        config: { access: 'admin' },
        schema: {
          querystring: insightsRangeQuerySchema,
          response: { 200: overviewSchema, ...errors },
        },
      },
      async (request): Promise<Overview> => {
        const report = await buildOverview(ctx.db, rangeOf(request.query));
        const debts = await outstandingDebts(ctx.db);
        return {
          from: report.range.from,
          to: report.range.to,
          ...toFigures(report.total),
          debts: { total: centsToDollarNumber(debts.totalCents), players: debts.players },
          daily: report.daily.map(({ date, ...figures }) => ({ date, ...toFigures(figures) })),
        };
      },
    );

    for (const name of EXPORT_NAMES) {
      app.get(
        `/api/admin/exports/${name}.csv`,
        {
          config: { access: 'admin' },
          schema: {
            querystring: insightsRangeQuerySchema,
            // The file itself: a stream, which Fastify sends as it is, without serializing.
            response: { 200: z.custom<Readable>(), ...errors },
          },
        },
        async (request, reply) => {
          const admin = requireUser(request);
          const range = rangeOf(request.query);
          const records = streamExport(ctx.database, name, range, ctx.env.TAX_REPORT_THRESHOLD);
          let first: IteratorResult<CsvRecord, void>;
          try {
            // The query runs on the first pull: a database failure is still a proper error
            // answer rather than a download that breaks off after its headers.
            first = await records.next();
            // The files hold players' names, payments and addresses: who took them out is kept.
            await recordAudit(ctx.db, {
              actorUserId: admin.id,
              action: 'insights.export',
              target: { type: 'export', id: name },
              details: { from: range.from, to: range.to },
            });
          } catch (error) {
            await records.return();
            throw error;
          }
          async function* all() {
            if (first.done) return;
            yield first.value;
            for await (const record of records) yield record;
          }
          const csv = stringify({ header: true, columns: [...EXPORT_CSV_COLUMNS[name]] });
          // A failure half-way destroys the response: the browser reports a failed download
          // rather than keeping a file that silently lacks rows.
          pipeline(Readable.from(all()), csv, (error) => {
            if (error) request.log.error({ err: error, name }, 'export failed');
          });
          // However the answer ends, the cursor is closed and its connection given back.
          reply.raw.once('close', () => {
            records.return().catch((error: unknown) => {
              request.log.warn({ err: error, name }, 'the export cursor did not close');
            });
          });
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header(
              'content-disposition',
              `attachment; filename="${exportFileName(name, range.from, range.to)}"`,
            )
            .send(csv);
        },
      );
    }

    app.get(
      '/api/admin/risk',
      {
        config: { access: 'admin' },
        schema: { response: { 200: riskSchema, ...errors } },
      },
      async (): Promise<Risk> => {
        const settings = riskSettingsOf(ctx.env);
        const now = ctx.clock();
        const shared = await findSharedDevices(ctx.db, settings, now);
        const networks = await findSharedNetworks(ctx.db, settings, now);
        const pairs = await findLopsidedPairs(ctx.db, settings, now);
        const unplayed = await findUnplayedWithdrawals(ctx.db, settings, now);
        return {
          windowDays: settings.windowDays,
          thresholds: {
            sharedAccountsMin: settings.sharedAccountsMin,
            pairMatchesMin: settings.pairMatchesMin,
            pairWinShareMin: settings.pairWinPercent / 100,
            withdrawnShareMin: settings.withdrawnPercent / 100,
            playShareMax: settings.playPercent / 100,
          },
          sharedDevices: shared,
          sharedNetworks: networks,
          lopsidedPairs: pairs.map((pair) => ({
            winner: pair.winner,
            loser: pair.loser,
            matches: pair.matches,
            winnerWins: pair.winnerWins,
            amountMoved: centsToDollarNumber(pair.amountMovedCents),
          })),
          unplayedWithdrawals: unplayed.map((row) => ({
            player: row.player,
            deposited: centsToDollarNumber(row.depositedCents),
            withdrawn: centsToDollarNumber(row.withdrawnCents),
            staked: centsToDollarNumber(row.stakedCents),
          })),
        };
      },
    );

    app.get(
      '/api/admin/players/:id',
      {
        config: { access: 'admin' },
        schema: { params: playerIdParamsSchema, response: { 200: playerPageSchema, ...errors } },
      },
      async (request) => loadPlayerPage(ctx, request.params.id),
    );

    app.post(
      '/api/admin/players/:id/notes',
      {
        config: { access: 'admin' },
        schema: {
          params: playerIdParamsSchema,
          body: adminNoteBodySchema,
          response: { 201: adminNoteSchema, ...errors },
        },
      },
      async (request, reply) => {
        const admin = requireUser(request);
        const note = await addAdminNote(ctx, admin.id, request.params.id, request.body.body);
        return reply.code(201).send(note);
      },
    );

    app.post(
      '/api/admin/players/:id/links/clear',
      {
        config: { access: 'admin' },
        schema: {
          params: playerIdParamsSchema,
          body: clearLinkBodySchema,
          response: { 200: z.object({ message: z.string() }), ...errors },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        await clearAccountLink(ctx.db, {
          adminId: admin.id,
          userId: request.params.id,
          otherId: request.body.otherUserId,
          note: request.body.note,
          windowDays: ctx.env.RISK_WINDOW_DAYS,
          now: ctx.clock(),
        });
        return { message: DEVICE_LINK_MESSAGES.linkCleared };
      },
    );
  };
