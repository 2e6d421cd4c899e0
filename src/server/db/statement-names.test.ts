import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import {
  acceptChallengeCall,
  createChallengeCall,
  quickMatchCall,
} from '../features/challenges/repository.ts';
import { statementName } from './client.ts';

// Its own file: the last test fills this process's memory of names.
describe('the names statements are prepared under', () => {
  it('is one name per text, the same each time, and none for columns taken from *, an upsert on a partial index or a cursor', () => {
    const text = 'select "id" from "users" where "users"."id" = $1';
    expect(statementName(text)).toMatch(/^s[\w-]{22}$/);
    expect(statementName(text)).toBe(statementName(text));
    expect(statementName(`${text} `)).not.toBe(statementName(text));
    for (const star of [
      'select * from challenge_accept($1::integer)',
      'select c.*, creator.username from creator, lateral challenge_create($1) c',
      'select q.* from player, lateral challenge_quick_match($1) q',
      'insert into t (a) values ($1) returning *',
      'select x.*\n  from t x where x.id = $1',
      'insert into v (user_id, status) values ($1, $2) on conflict ("user_id") where "v"."status" = $3 do update set status = $4',
      'insert into v (email) values ($1) on conflict (lower(email)) where deleted_at is null do nothing',
      'declare "export_1a2b" no scroll cursor for select id from t where a = $1',
    ]) {
      expect(statementName(star), star).toBeNull();
    }
    for (const fixed of [
      'select count(*)::int as n from t where a = $1',
      'select a * b as product from t where c = $1',
      'select row_to_json(t.*) from t where id = $1',
      'insert into n (key) values ($1) on conflict do nothing',
      'insert into w (id, cents) values ($1, $2) on conflict (id) do update set cents = w.cents + $2',
    ]) {
      expect(statementName(fixed), fixed).not.toBeNull();
    }
  });

  it('prepares the calls that create, accept and quick-match a challenge', () => {
    const now = new Date('2026-11-26T12:00:00Z');
    const seen = {
      suspendedAt: null,
      suspendedUntil: null,
      playBreakUntil: null,
      moneyLockedAt: null,
    };
    const terms = {
      stakeCents: 500n,
      game: 'Chess',
      gamerTag: 'ace',
      phoneNumber: '5550100000',
      console: 'PC',
      now,
    };
    const dialect = new PgDialect();
    for (const call of [
      createChallengeCall(
        { ...terms, creatorId: 1, mode: null, platform: null, opponentId: null },
        seen,
      ),
      acceptChallengeCall(7, 2, now),
      quickMatchCall({ ...terms, playerId: 1, passedOver: [] }, seen),
      quickMatchCall({ ...terms, playerId: 1, passedOver: [4, 9] }, seen),
    ]) {
      const { sql: text } = dialect.sqlToQuery(call);
      expect(statementName(text), text).not.toBeNull();
    }
  });

  it('gives a text the same name once it no longer remembers it', () => {
    const probe = (i: number) => `select $1::integer as probe_${i}`;
    const first = Array.from({ length: 6_000 }, (_, i) => statementName(probe(i)));
    expect(new Set(first).size).toBe(6_000);
    expect(Array.from({ length: 6_000 }, (_, i) => statementName(probe(i)))).toEqual(first);
  });
});
