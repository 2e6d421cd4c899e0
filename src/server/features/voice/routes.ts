import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import { voiceConfigSchema } from '#shared/contracts/voice.ts';
import type { AppContext } from '../../context.ts';

export const voiceRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // TURN credentials are secrets of a kind: only signed-in players get them.
    app.get(
      '/api/voice/config',
      {
        config: { access: 'user' },
        schema: { response: { 200: voiceConfigSchema, 401: errorBodySchema } },
      },
      async () => ({ iceServers: ctx.env.ICE_SERVERS }),
    );
  };
