ALTER TABLE "challenges" ADD COLUMN "opponent_id" integer;--> statement-breakpoint
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_opponent_id_users_id_fk" FOREIGN KEY ("opponent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "challenges_opponent_id_idx" ON "challenges" USING btree ("opponent_id","id") WHERE "challenges"."opponent_id" is not null;--> statement-breakpoint
CREATE INDEX "challenges_quick_match_idx" ON "challenges" USING btree (lower("game"),"console","amount_cents","id") WHERE "challenges"."status" = 'open' and "challenges"."opponent_id" is null;--> statement-breakpoint
DROP FUNCTION challenge_create(integer, bigint, text, text, text, text, text, text, timestamptz);
--> statement-breakpoint
CREATE FUNCTION challenge_create(
  p_creator_id integer,
  p_amount_cents bigint,
  p_game text,
  p_gamer_tag text,
  p_phone_number text,
  p_console text,
  p_mode text,
  p_platform text,
  p_opponent_id integer,
  p_now timestamptz
) RETURNS SETOF challenge_call_result
LANGUAGE plpgsql AS $$
DECLARE
  v_id integer;
BEGIN
  INSERT INTO challenges (creator_id, amount_cents, game, gamer_tag, phone_number, console, mode,
      platform, opponent_id, status, created_at, updated_at)
    VALUES (p_creator_id, p_amount_cents, p_game, p_gamer_tag, p_phone_number, p_console, p_mode,
      p_platform, p_opponent_id, 'open', p_now, p_now)
    RETURNING id INTO v_id;
  -- The stake: a short wallet fails the whole call, and no challenge is left behind.
  RETURN QUERY SELECT true, v_id, 'open'::text, p_creator_id, p.transfer_id, p.account_key,
      p.account_user_id, p.balance_cents
    FROM ledger_post('stake:creator:' || v_id, 'stake', 'challenge', v_id::text, NULL, NULL, NULL,
      ARRAY['user:' || p_creator_id, 'escrow:challenge:' || v_id], ARRAY['user', 'escrow'],
      ARRAY[false, false], ARRAY[p_creator_id, NULL], ARRAY[-p_amount_cents, p_amount_cents]) p;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION challenge_accept(
  p_challenge_id integer,
  p_acceptor_id integer,
  p_now timestamptz
) RETURNS SETOF challenge_call_result
LANGUAGE plpgsql AS $$
DECLARE
  v_amount bigint;
  v_creator integer;
BEGIN
  -- A direct challenge (DESIGN §12) is accepted by its opponent only.
  UPDATE challenges c
    SET status = 'accepted', acceptor_id = p_acceptor_id, accepted_at = p_now, updated_at = p_now
    WHERE c.id = p_challenge_id AND c.status = 'open' AND c.creator_id <> p_acceptor_id
      AND (c.opponent_id IS NULL OR c.opponent_id = p_acceptor_id)
    RETURNING c.amount_cents, c.creator_id INTO v_amount, v_creator;
  IF v_amount IS NULL THEN
    RETURN QUERY SELECT false, c.id, c.status, c.creator_id, NULL::bigint, NULL::text,
        NULL::integer, NULL::bigint
      FROM challenges c WHERE c.id = p_challenge_id;
    RETURN;
  END IF;
  RETURN QUERY SELECT true, p_challenge_id, 'accepted'::text, v_creator, p.transfer_id,
      p.account_key, p.account_user_id, p.balance_cents
    FROM ledger_post('stake:acceptor:' || p_challenge_id, 'stake', 'challenge',
      p_challenge_id::text, NULL, NULL, NULL,
      ARRAY['user:' || p_acceptor_id, 'escrow:challenge:' || p_challenge_id],
      ARRAY['user', 'escrow'], ARRAY[false, false], ARRAY[p_acceptor_id, NULL],
      ARRAY[-v_amount, v_amount]) p;
END;
$$;
--> statement-breakpoint
-- Quick match (DESIGN §12): accepts the oldest open public challenge of another player on the
-- same terms, or opens one. Players asking on the same terms pass one at a time (a transaction
-- lock on the terms), so two asking at once meet each other: the first opens, the second
-- accepts. A player who already waits on these terms keeps their place (changed = false).
CREATE FUNCTION challenge_quick_match(
  p_player_id integer,
  p_amount_cents bigint,
  p_game text,
  p_gamer_tag text,
  p_phone_number text,
  p_console text,
  p_now timestamptz
) RETURNS SETOF challenge_call_result
LANGUAGE plpgsql AS $$
DECLARE
  v_id integer;
BEGIN
  PERFORM pg_advisory_xact_lock(20813,
    hashtext(lower(p_game) || '|' || p_console || '|' || p_amount_cents::text));
  LOOP
    SELECT c.id INTO v_id FROM challenges c
      WHERE c.status = 'open' AND c.opponent_id IS NULL AND lower(c.game) = lower(p_game)
        AND c.console = p_console AND c.amount_cents = p_amount_cents
        AND c.creator_id <> p_player_id
      ORDER BY c.id LIMIT 1;
    EXIT WHEN v_id IS NULL;
    -- Refused only if an ordinary acceptance took it meanwhile: then the next one is tried.
    RETURN QUERY SELECT * FROM challenge_accept(v_id, p_player_id, p_now) a WHERE a.changed;
    IF FOUND THEN
      RETURN;
    END IF;
  END LOOP;
  SELECT c.id INTO v_id FROM challenges c
    WHERE c.status = 'open' AND c.opponent_id IS NULL AND lower(c.game) = lower(p_game)
      AND c.console = p_console AND c.amount_cents = p_amount_cents
      AND c.creator_id = p_player_id
    ORDER BY c.id LIMIT 1;
  IF v_id IS NOT NULL THEN
    RETURN QUERY SELECT false, v_id, 'open'::text, p_player_id, NULL::bigint, NULL::text,
        NULL::integer, NULL::bigint;
    RETURN;
  END IF;
  RETURN QUERY SELECT * FROM challenge_create(p_player_id, p_amount_cents, p_game, p_gamer_tag,
    p_phone_number, p_console, NULL, NULL, NULL, p_now);
END;
$$;
