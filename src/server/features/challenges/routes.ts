import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CHALLENGE_MESSAGES,
  challengeCountsSchema,
  challengeFiltersSchema,
  challengeIdParamsSchema,
  challengeSchema,
  createChallengeBodySchema,
  disputeBodySchema,
  evidenceSchema,
  fairPlayRulesSchema,
  listChallengesQuerySchema,
  opponentSearchQuerySchema,
  opponentSuggestionsSchema,
  quickMatchBodySchema,
  quickMatchResponseSchema,
  submitScoresBodySchema,
  submitScoresResponseSchema,
  uploadResponseSchema,
} from '#shared/contracts/challenges.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema/users.ts';
import { AppError } from '../../errors.ts';
import { IMAGE_TYPES } from '../../lib/file-type.ts';
import { requireViewer } from '../../plugins/access.ts';
import { requirePlayerLocation, suggestOpponents } from '../accounts/index.ts';
import { receiveUpload, type FileStore } from '../uploads/index.ts';
import { preferredEncoding, type ContentEncoding } from '../../lib/content-encoding.ts';
import { ChallengePageCache } from './page-cache.ts';
import {
  countChallenges,
  findChallenge,
  findChallengeRow,
  listChallengeRows,
} from './repository.ts';
import { addEvidence, listEvidence } from './evidence.ts';
import { maySee } from './match-rules.ts';
import { confirmResult, requireParticipant } from './review.ts';
import {
  acceptChallenge,
  cancelChallenge,
  claimNoShow,
  createChallenge,
  declineChallenge,
  quickMatch,
} from './service.ts';
import { toChallengeView } from './view.ts';
import { disputeResult, submitScores } from './results.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/**
 * Sends JSON that is already written (and perhaps compressed): the route's response schema
 * describes it, but Fastify's serializer is not run again over a cached page.
 */
function sendJson(reply: FastifyReply, body: string | Buffer, encoding?: ContentEncoding) {
  void reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (encoding) void reply.header('content-encoding', encoding);
  return reply.send(body);
}

export const challengeRoutes =
  (ctx: AppContext, store: FileStore): FastifyPluginAsyncZod =>
  async (app) => {
    // Players' lists are the same for every player but for their own challenges: built once per
    // change and kept ready to send (see page-cache.ts).
    const pages = new ChallengePageCache((query) =>
      listChallengeRows(ctx.db, { viewerId: 0, ...query, withBalances: false }),
    );
    const stopCaching = ctx.bus.subscribe((event) => pages.handle(event));
    app.addHook('onClose', async () => stopCaching());

    async function viewOf(id: number, viewer: User) {
      const row = await findChallengeRow(ctx.db, id);
      // Someone else's direct challenge is not there at all for a player
      // (docs/challenges.md#finding-an-opponent).
      if (!row || !(viewer.isAdmin || maySee(row.challenge, viewer.id)))
        throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
      return toChallengeView(row, viewer);
    }

    app.get(
      '/api/challenges',
      {
        config: { access: 'user' },
        schema: {
          querystring: listChallengesQuerySchema,
          response: { 200: z.array(challengeSchema), ...errors },
        },
      },
      async (request, reply) => {
        const viewer = requireViewer(request);
        const { role, ...query } = request.query;
        // Admins see e-mails and balances, and a role filter is the viewer's own: read afresh.
        if (viewer.isAdmin || role !== undefined) {
          const rows = await listChallengeRows(ctx.db, {
            viewerId: viewer.id,
            role,
            ...query,
            withBalances: viewer.isAdmin,
            everyone: viewer.isAdmin,
          });
          return rows.map((row) => toChallengeView(row, viewer));
        }
        const page = await pages.page(query, ctx.clock().getTime());
        const encoding = preferredEncoding(request.headers['accept-encoding']);
        if (encoding && !page.involves(viewer.id)) {
          return sendJson(reply, page.encoded(encoding), encoding);
        }
        return sendJson(
          reply,
          page.bodyFor(viewer.id, (row) => toChallengeView(row, viewer)),
        );
      },
    );

    app.get(
      '/api/challenges/counts',
      {
        config: { access: 'user' },
        schema: {
          querystring: challengeFiltersSchema,
          response: { 200: challengeCountsSchema, ...errors },
        },
      },
      async (request) => countChallenges(ctx.db, requireViewer(request).id, request.query),
    );

    app.get(
      '/api/challenges/rules',
      {
        config: { access: 'user' },
        schema: { response: { 200: fairPlayRulesSchema, ...errors } },
      },
      async () => ({
        resultReviewHours: ctx.env.RESULT_REVIEW_HOURS,
        noShowMinutes: ctx.env.NO_SHOW_MINUTES,
        matchTimeLimitHours: ctx.env.MATCH_TIME_LIMIT_HOURS,
      }),
    );

    app.get(
      '/api/challenges/:id',
      {
        config: { access: 'user' },
        schema: { params: challengeIdParamsSchema, response: { 200: challengeSchema, ...errors } },
      },
      async (request) => viewOf(request.params.id, requireViewer(request)),
    );

    app.post(
      '/api/challenges',
      {
        config: { access: 'user' },
        schema: { body: createChallengeBodySchema, response: { 201: challengeSchema, ...errors } },
      },
      async (request, reply) => {
        const user = requireViewer(request);
        const standing = await requirePlayerLocation(ctx, request, user.id);
        const id = await createChallenge(ctx, user.id, request.body, standing);
        return reply.code(201).send(await viewOf(id, user));
      },
    );

    app.post(
      '/api/challenges/:id/accept',
      {
        config: { access: 'user' },
        schema: { params: challengeIdParamsSchema, response: { 200: challengeSchema, ...errors } },
      },
      async (request) => {
        const user = requireViewer(request);
        const standing = await requirePlayerLocation(ctx, request, user.id);
        await acceptChallenge(ctx, request.params.id, user.id, standing);
        return viewOf(request.params.id, user);
      },
    );

    app.post(
      '/api/challenges/:id/decline',
      {
        config: { access: 'user' },
        schema: { params: challengeIdParamsSchema, response: { 200: challengeSchema, ...errors } },
      },
      async (request) => {
        const user = requireViewer(request);
        await declineChallenge(ctx, request.params.id, user.id);
        return viewOf(request.params.id, user);
      },
    );

    app.get(
      '/api/players',
      {
        config: { access: 'user' },
        schema: {
          querystring: opponentSearchQuerySchema,
          response: { 200: opponentSuggestionsSchema, ...errors },
        },
      },
      async (request) => ({
        usernames: await suggestOpponents(
          ctx.db,
          requireViewer(request).id,
          request.query.search,
          ctx.clock(),
        ),
      }),
    );

    app.post(
      '/api/quick-match',
      {
        config: { access: 'user' },
        schema: {
          body: quickMatchBodySchema,
          response: { 200: quickMatchResponseSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireViewer(request);
        const standing = await requirePlayerLocation(ctx, request, user.id);
        const { challengeId, matched } = await quickMatch(ctx, user.id, request.body, standing);
        return { challenge: await viewOf(challengeId, user), matched };
      },
    );

    app.post(
      '/api/challenges/:id/cancel',
      {
        config: { access: 'user' },
        schema: { params: challengeIdParamsSchema, response: { 200: challengeSchema, ...errors } },
      },
      async (request) => {
        const user = requireViewer(request);
        await cancelChallenge(ctx, request.params.id, user.id);
        return viewOf(request.params.id, user);
      },
    );

    app.post(
      '/api/challenges/:id/submit',
      {
        config: { access: 'user' },
        schema: {
          params: challengeIdParamsSchema,
          body: submitScoresBodySchema,
          response: { 200: submitScoresResponseSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireViewer(request);
        const result = await submitScores(ctx, request.params.id, user.id, request.body);
        return {
          status: result.status,
          winner: {
            id: result.winnerId,
            prize: centsToDollarNumber(result.prizeCents),
            deduction: centsToDollarNumber(result.status === 'completed' ? result.feeCents : 0n),
          },
          updatedWinnerInfo: {
            id: result.winnerId,
            balance: centsToDollarNumber(result.winnerBalanceCents),
          },
          review: result.reviewEndsAt
            ? {
                held: centsToDollarNumber(result.prizeCents - result.feeCents),
                until: result.reviewEndsAt.toISOString(),
              }
            : null,
        };
      },
    );

    app.post(
      '/api/challenges/:id/dispute',
      {
        config: { access: 'user' },
        schema: {
          params: challengeIdParamsSchema,
          body: disputeBodySchema,
          response: { 200: challengeSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireViewer(request);
        await disputeResult(ctx, request.params.id, user.id, request.body.reason);
        return viewOf(request.params.id, user);
      },
    );

    app.post(
      '/api/challenges/:id/confirm',
      {
        config: { access: 'user' },
        schema: { params: challengeIdParamsSchema, response: { 200: challengeSchema, ...errors } },
      },
      async (request) => {
        const user = requireViewer(request);
        await confirmResult(ctx, request.params.id, user.id);
        return viewOf(request.params.id, user);
      },
    );

    app.post(
      '/api/challenges/:id/no-show',
      {
        config: { access: 'user' },
        schema: { params: challengeIdParamsSchema, response: { 200: challengeSchema, ...errors } },
      },
      async (request) => {
        const user = requireViewer(request);
        await claimNoShow(ctx, request.params.id, user.id);
        return viewOf(request.params.id, user);
      },
    );

    app.get(
      '/api/challenges/:id/evidence',
      {
        config: { access: 'user' },
        schema: {
          params: challengeIdParamsSchema,
          response: { 200: z.array(evidenceSchema), ...errors },
        },
      },
      async (request) => {
        const viewer = requireViewer(request);
        const challenge = await findChallenge(ctx.db, request.params.id);
        if (!challenge) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
        if (!viewer.isAdmin) requireParticipant(challenge, viewer.id);
        return listEvidence(ctx, challenge.id);
      },
    );

    app.post(
      '/api/challenges/:id/evidence',
      {
        config: { access: 'user' },
        schema: {
          params: challengeIdParamsSchema,
          response: {
            201: evidenceSchema,
            ...errors,
            413: errorBodySchema,
            415: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const user = requireViewer(request);
        const evidence = await addEvidence(ctx, store, request, request.params.id, user.id);
        return reply.code(201).send(evidence);
      },
    );

    app.post(
      '/api/challenges/:id/upload-screenshot',
      {
        config: { access: 'user' },
        schema: {
          params: challengeIdParamsSchema,
          response: {
            201: uploadResponseSchema,
            ...errors,
            413: errorBodySchema,
            415: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const user = requireViewer(request);
        const row = await findChallengeRow(ctx.db, request.params.id);
        if (!row) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
        requireParticipant(row.challenge, user.id);
        const upload = await receiveUpload(ctx.db, store, request, {
          field: 'screenshot',
          allowed: IMAGE_TYPES,
          purpose: 'screenshot',
          ownerId: user.id,
          challengeId: row.challenge.id,
        });
        return reply.code(201).send({ id: upload.id, url: `/api/uploads/${upload.id}` });
      },
    );
  };
