import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  disputeBodySchema,
  evidenceSchema,
  submitScoresBodySchema,
} from '#shared/contracts/challenges.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  adminTournamentDisputeSchema,
  createTournamentBodySchema,
  resolveTournamentMatchBodySchema,
  TOURNAMENT_MESSAGES,
  tournamentDetailSchema,
  tournamentIdParamsSchema,
  tournamentListSchema,
  tournamentMatchParamsSchema,
} from '#shared/contracts/tournaments.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { requireViewer } from '../../plugins/access.ts';
import { requirePlayerLocation } from '../accounts/index.ts';
import type { FileStore } from '../uploads/index.ts';
import { addMatchEvidence, listMatchEvidence } from './evidence.ts';
import { cancelTournament, createTournament, joinTournament, leaveTournament } from './service.ts';
import { listTournamentDisputes, listTournaments, tournamentDetail } from './view.ts';
import {
  claimMatchNoShow,
  confirmMatch,
  disputeMatch,
  resolveMatch,
  submitMatch,
} from './matches.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/** docs/tournaments.md: the players' tournament routes and the admins' tools. */
export const tournamentRoutes =
  (ctx: AppContext, store: FileStore): FastifyPluginAsyncZod =>
  async (app) => {
    async function detail(id: number, viewerId: number) {
      const view = await tournamentDetail(ctx.db, id, viewerId, ctx.env);
      if (!view) throw new AppError('NOT_FOUND', TOURNAMENT_MESSAGES.notFound);
      return view;
    }

    app.get(
      '/api/tournaments',
      {
        config: { access: 'user' },
        schema: { response: { 200: tournamentListSchema, ...errors } },
      },
      async (request) => listTournaments(ctx.db, requireViewer(request).id),
    );

    app.get(
      '/api/tournaments/:id',
      {
        config: { access: 'user' },
        schema: {
          params: tournamentIdParamsSchema,
          response: { 200: tournamentDetailSchema, ...errors },
        },
      },
      async (request) => detail(request.params.id, requireViewer(request).id),
    );

    app.post(
      '/api/tournaments/:id/join',
      {
        config: { access: 'user' },
        schema: {
          params: tournamentIdParamsSchema,
          response: { 200: tournamentDetailSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireViewer(request);
        await requirePlayerLocation(ctx, request, user.id);
        await joinTournament(ctx, request.params.id, user.id);
        return detail(request.params.id, user.id);
      },
    );

    app.post(
      '/api/tournaments/:id/leave',
      {
        config: { access: 'user' },
        schema: {
          params: tournamentIdParamsSchema,
          response: { 200: tournamentDetailSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireViewer(request);
        await leaveTournament(ctx, request.params.id, user.id);
        return detail(request.params.id, user.id);
      },
    );

    app.post(
      '/api/tournaments/:id/matches/:matchId/submit',
      {
        config: { access: 'user' },
        schema: {
          params: tournamentMatchParamsSchema,
          body: submitScoresBodySchema,
          response: { 200: tournamentDetailSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireViewer(request);
        const { id, matchId } = request.params;
        await submitMatch(ctx, id, matchId, user.id, request.body);
        return detail(id, user.id);
      },
    );

    app.post(
      '/api/tournaments/:id/matches/:matchId/confirm',
      {
        config: { access: 'user' },
        schema: {
          params: tournamentMatchParamsSchema,
          response: { 200: tournamentDetailSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireViewer(request);
        const { id, matchId } = request.params;
        await confirmMatch(ctx, id, matchId, user.id);
        return detail(id, user.id);
      },
    );

    app.post(
      '/api/tournaments/:id/matches/:matchId/dispute',
      {
        config: { access: 'user' },
        schema: {
          params: tournamentMatchParamsSchema,
          body: disputeBodySchema,
          response: { 200: tournamentDetailSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireViewer(request);
        const { id, matchId } = request.params;
        await disputeMatch(ctx, id, matchId, user.id, request.body.reason);
        return detail(id, user.id);
      },
    );

    app.post(
      '/api/tournaments/:id/matches/:matchId/no-show',
      {
        config: { access: 'user' },
        schema: {
          params: tournamentMatchParamsSchema,
          response: { 200: tournamentDetailSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireViewer(request);
        const { id, matchId } = request.params;
        await claimMatchNoShow(ctx, id, matchId, user.id);
        return detail(id, user.id);
      },
    );

    app.get(
      '/api/tournaments/:id/matches/:matchId/evidence',
      {
        config: { access: 'user' },
        schema: {
          params: tournamentMatchParamsSchema,
          response: { 200: z.array(evidenceSchema), ...errors },
        },
      },
      async (request) => {
        const { id, matchId } = request.params;
        return listMatchEvidence(ctx, { tournamentId: id, matchId }, requireViewer(request));
      },
    );

    app.post(
      '/api/tournaments/:id/matches/:matchId/evidence',
      {
        config: { access: 'user' },
        schema: {
          params: tournamentMatchParamsSchema,
          response: {
            201: evidenceSchema,
            ...errors,
            413: errorBodySchema,
            415: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const { id, matchId } = request.params;
        const evidence = await addMatchEvidence(
          ctx,
          store,
          request,
          { tournamentId: id, matchId },
          requireViewer(request),
        );
        return reply.code(201).send(evidence);
      },
    );

    app.post(
      '/api/admin/tournaments',
      {
        config: { access: 'admin' },
        schema: {
          body: createTournamentBodySchema,
          response: { 201: tournamentDetailSchema, ...errors },
        },
      },
      async (request, reply) => {
        const admin = requireViewer(request);
        const id = await createTournament(ctx, admin.id, request.body);
        return reply.code(201).send(await detail(id, admin.id));
      },
    );

    app.post(
      '/api/admin/tournaments/:id/cancel',
      {
        config: { access: 'admin' },
        schema: {
          params: tournamentIdParamsSchema,
          response: { 200: tournamentDetailSchema, ...errors },
        },
      },
      async (request) => {
        const admin = requireViewer(request);
        await cancelTournament(ctx, request.params.id, admin.id);
        return detail(request.params.id, admin.id);
      },
    );

    app.get(
      '/api/admin/tournament-disputes',
      {
        config: { access: 'admin' },
        schema: { response: { 200: z.array(adminTournamentDisputeSchema), ...errors } },
      },
      async () => listTournamentDisputes(ctx.db),
    );

    app.post(
      '/api/admin/tournaments/:id/matches/:matchId/resolve',
      {
        config: { access: 'admin' },
        schema: {
          params: tournamentMatchParamsSchema,
          body: resolveTournamentMatchBodySchema,
          response: { 200: tournamentDetailSchema, ...errors },
        },
      },
      async (request) => {
        const admin = requireViewer(request);
        const { id, matchId } = request.params;
        await resolveMatch(ctx, id, matchId, admin.id, request.body.winnerId);
        return detail(id, admin.id);
      },
    );
  };
