-- Accepts an open challenge: the acceptor's stake into its escrow, once, whatever runs at the
-- same time (the row's status guards it).
-- Last defined by migrations/0016_direct_challenges_quick_match.sql. This file is the function's current text, checked
-- against the migrated database by ../sql-functions.test.ts: a change is a new migration with
-- the new text, and this file updated to it.
CREATE OR REPLACE FUNCTION public.challenge_accept(p_challenge_id integer, p_acceptor_id integer, p_now timestamp with time zone)
 RETURNS SETOF challenge_call_result
 LANGUAGE plpgsql
AS $function$
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
$function$
