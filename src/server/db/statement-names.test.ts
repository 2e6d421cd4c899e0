import { describe, expect, it } from 'vitest';
import { statementName } from './client.ts';

// Its own file: the last test fills this process's list of named texts.
describe('the names statements are prepared under', () => {
  it('is one name per text, the same each time, and none for columns taken from * or an upsert on a partial index', () => {
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

  it('names a bounded number of texts, and sends the ones after unnamed', () => {
    const probe = (i: number) => `select $1::integer as probe_${i}`;
    const first = statementName(probe(0));
    const names = Array.from({ length: 5_000 }, (_, i) => statementName(probe(i + 1)));
    const named = names.filter((name) => name !== null).length;
    expect(named).toBeGreaterThan(1_000);
    expect(named).toBeLessThan(5_000);
    expect(names.slice(named).every((name) => name === null)).toBe(true);
    expect(statementName(probe(0))).toBe(first);
  });
});
