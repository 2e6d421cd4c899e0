-- Opens a challenge (public, or direct to one opponent) with the creator's stake moved into its
-- escrow, in one statement with the transfer (decision 9).
-- Last defined by migrations/0016_direct_challenges_quick_match.sql. This file is the function's current text, checked
-- against the migrated database by ../sql-functions.test.ts: a change is a new migration with
-- the new text, and this file updated to it.
CREATE OR REPLACE FUNCTION public.challenge_create(p_creator_id integer, p_amount_cents bigint, p_game text, p_gamer_tag text, p_phone_number text, p_console text, p_mode text, p_platform text, p_opponent_id integer, p_now timestamp with time zone)
 RETURNS SETOF challenge_call_result
 LANGUAGE plpgsql
AS $function$
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
$function$
