-- No longer called: challenge_report_result (migration 0010) replaced it when results began to
-- wait for review. It stays in the database, as migrations are never edited.
-- Last defined by migrations/0009_money_functions.sql. This file is the function's current text, checked
-- against the migrated database by ../sql-functions.test.ts: a change is a new migration with
-- the new text, and this file updated to it.
CREATE OR REPLACE FUNCTION public.challenge_record_result(p_challenge_id integer, p_status text, p_winner_id integer, p_creator_score integer, p_acceptor_score integer, p_screenshot_url text, p_notes text, p_dispute_reason text, p_submitted_by integer, p_prize_cents bigint, p_fee_cents bigint, p_now timestamp with time zone, p_mails jsonb)
 RETURNS SETOF challenge_call_result
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_creator integer;
BEGIN
  IF p_status NOT IN ('completed', 'disputed') THEN
    RAISE EXCEPTION 'a result is completed or disputed, not %', p_status USING ERRCODE = 'LG002';
  END IF;
  UPDATE challenges c
    SET status = p_status, winner_id = p_winner_id, creator_score = p_creator_score,
      acceptor_score = p_acceptor_score, screenshot_url = p_screenshot_url, notes = p_notes,
      dispute_reason = p_dispute_reason, submitted_by = p_submitted_by,
      prize_cents = p_prize_cents,
      fee_cents = CASE WHEN p_status = 'completed' THEN p_fee_cents END,
      completed_at = p_now, updated_at = p_now
    WHERE c.id = p_challenge_id AND c.status = 'accepted'
    RETURNING c.creator_id INTO v_creator;
  IF v_creator IS NULL THEN
    RETURN QUERY SELECT false, c.id, c.status, c.creator_id, NULL::bigint, NULL::text,
        NULL::integer, NULL::bigint
      FROM challenges c WHERE c.id = p_challenge_id;
    RETURN;
  END IF;

  INSERT INTO outbox (dedupe_key, recipient, subject, body, metadata)
    SELECT m.dedupe_key, m.recipient, m.subject, m.body, m.metadata
      FROM jsonb_to_recordset(p_mails)
        AS m(dedupe_key text, recipient text, subject text, body text, metadata jsonb)
    ON CONFLICT (dedupe_key) DO NOTHING;

  IF p_status = 'disputed' THEN
    -- The stakes wait in escrow for an admin.
    RETURN QUERY SELECT true, p_challenge_id, p_status, v_creator, NULL::bigint, NULL::text,
      NULL::integer, NULL::bigint;
    RETURN;
  END IF;
  RETURN QUERY SELECT true, p_challenge_id, p_status, v_creator, p.transfer_id, p.account_key,
      p.account_user_id, p.balance_cents
    FROM ledger_post('settle:' || p_challenge_id, 'settlement', 'challenge',
      p_challenge_id::text, NULL, NULL, NULL,
      ARRAY['escrow:challenge:' || p_challenge_id, 'user:' || p_winner_id, 'house:fees'],
      ARRAY['escrow', 'user', 'house'], ARRAY[false, false, false],
      ARRAY[NULL, p_winner_id, NULL],
      ARRAY[-p_prize_cents, p_prize_cents - p_fee_cents, p_fee_cents]) p;
END;
$function$
