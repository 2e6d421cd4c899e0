-- Money moves through functions in the database (decision 0010): one call runs the whole
-- operation with plans the database keeps between calls, instead of a long statement that is
-- parsed and planned on every request.
--
-- ledger_post records one transfer: its row, each entry added to its account's cached balance,
-- and a posting per entry with the balance it left. It is the only code that writes the ledger.
-- Entries are signed: a credit adds to the account, a debit (negative) takes away. The payload
-- hash is the SHA-256 of the same canonical JSON the application computed before this function
-- existed, so keys recorded then still replay. Replaying a key with the same payload returns
-- one row with the first transfer's id and no account; with a different payload it fails with
-- SQLSTATE LG001. A transfer that breaks a rule (unbalanced, an empty or repeated account, a
-- zero amount) fails with LG002: the calling code is wrong. A balance below zero fails on the
-- accounts' CHECKs, as before.
CREATE FUNCTION ledger_post(
  p_idempotency_key text,
  p_kind text,
  p_reference_type text,
  p_reference_id text,
  p_actor_user_id integer,
  p_memo text,
  p_reverses_transfer_id bigint,
  p_account_keys text[],
  p_account_kinds text[],
  p_allow_negative boolean[],
  p_user_ids integer[],
  p_amounts_cents bigint[]
) RETURNS TABLE (transfer_id bigint, account_key text, account_user_id integer, balance_cents bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_entries integer := cardinality(p_account_keys);
  v_valid boolean;
  v_hash text;
  v_transfer bigint;
  v_recorded_hash text;
BEGIN
  IF v_entries IS NULL OR v_entries < 2
    OR cardinality(p_account_kinds) IS DISTINCT FROM v_entries
    OR cardinality(p_allow_negative) IS DISTINCT FROM v_entries
    OR cardinality(p_user_ids) IS DISTINCT FROM v_entries
    OR cardinality(p_amounts_cents) IS DISTINCT FROM v_entries THEN
    RAISE EXCEPTION 'transfer %: a transfer needs at least two entries, each with a key, kind and amount',
      p_idempotency_key USING ERRCODE = 'LG002';
  END IF;

  -- The rules and the hash in one pass over the entries.
  SELECT count(DISTINCT e.key) = v_entries
      AND NOT bool_or(e.key IS NULL OR e.key = '' OR e.amount IS NULL OR e.amount = 0)
      AND sum(e.amount) = 0,
    encode(sha256(convert_to(
      '{"kind":' || to_json(p_kind)::text
      || ',"reference":' || CASE WHEN p_reference_type IS NULL THEN 'null'
        ELSE '[' || to_json(p_reference_type)::text || ',' || to_json(p_reference_id)::text || ']'
        END
      || ',"entries":[' || string_agg(
        '[' || to_json(e.key)::text
          || CASE WHEN e.amount > 0 THEN ',"credit","' ELSE ',"debit","' END
          || abs(e.amount)::text || '"]',
        ',' ORDER BY e.key COLLATE "C")
      || ']}', 'UTF8')), 'hex')
    INTO v_valid, v_hash
    FROM unnest(p_account_keys, p_amounts_cents) AS e(key, amount);
  IF v_valid IS NOT TRUE THEN
    RAISE EXCEPTION 'transfer %: each entry needs an account of its own and an amount, and they must sum to zero',
      p_idempotency_key USING ERRCODE = 'LG002';
  END IF;

  -- A concurrent transfer with the same key waits here for the first to commit.
  INSERT INTO ledger_transfers (idempotency_key, kind, reference_type, reference_id, payload_hash,
      actor_user_id, memo, reverses_transfer_id)
    VALUES (p_idempotency_key, p_kind, p_reference_type, p_reference_id, v_hash, p_actor_user_id,
      p_memo, p_reverses_transfer_id)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id INTO v_transfer;
  IF v_transfer IS NULL THEN
    SELECT t.id, t.payload_hash INTO v_transfer, v_recorded_hash
      FROM ledger_transfers t WHERE t.idempotency_key = p_idempotency_key;
    IF v_recorded_hash IS DISTINCT FROM v_hash THEN
      RAISE EXCEPTION 'transfer % was recorded with a different payload', p_idempotency_key
        USING ERRCODE = 'LG001';
    END IF;
    RETURN QUERY SELECT v_transfer, NULL::text, NULL::integer, NULL::bigint;
    RETURN;
  END IF;

  -- Each entry is added to its account in key order, so that transfers lock accounts in the same
  -- order and cannot deadlock one another. PostgreSQL checks the row an INSERT proposes before it
  -- finds the conflict, so an account that exists is proposed with a zero balance and the entry
  -- is added on the conflict; a new one (an escrow, a hold) is proposed with the entry, and
  -- refused if that is a debit it cannot cover.
  RETURN QUERY
  WITH entry AS (
    SELECT * FROM unnest(p_account_keys, p_account_kinds, p_allow_negative, p_user_ids,
      p_amounts_cents) AS e(key, kind, allow_negative, user_id, amount)
  ),
  account AS (
    INSERT INTO ledger_accounts AS a (key, kind, allow_negative, user_id, balance_cents)
    SELECT e.key, e.kind, e.allow_negative, e.user_id,
        CASE WHEN EXISTS (SELECT 1 FROM ledger_accounts known WHERE known.key = e.key)
          THEN 0 ELSE e.amount END
      FROM entry e
      ORDER BY e.key
    ON CONFLICT (key) DO UPDATE
      SET balance_cents = a.balance_cents
        + (SELECT e2.amount FROM entry e2 WHERE e2.key = excluded.key)
    RETURNING a.id, a.key, a.user_id, a.balance_cents
  ),
  posting AS (
    INSERT INTO ledger_postings (transfer_id, account_id, amount_cents, balance_after_cents)
    SELECT v_transfer, account.id, entry.amount, account.balance_cents
      FROM account JOIN entry ON entry.key = account.key
  )
  SELECT v_transfer, account.key, account.user_id, account.balance_cents FROM account;
END;
$$;
--> statement-breakpoint
-- The challenge operations that move money, each one call. Each answers with the challenge as the
-- call left it (changed or not) and, when it posted a transfer, one row per account the transfer
-- touched, with the balance it left. The rules the write relies on are its guards; when a guard
-- refuses, the row says what the challenge is now, and the application says why it refused. The
-- account keys are the application's (features/ledger/accounts.ts): `user:{id}` for a wallet,
-- `escrow:challenge:{id}` for a challenge's stakes, `house:fees` for the fee.
CREATE TYPE challenge_call_result AS (
  changed boolean,
  challenge_id integer,
  challenge_status text,
  creator_id integer,
  transfer_id bigint,
  account_key text,
  account_user_id integer,
  balance_cents bigint
);
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
  p_now timestamptz
) RETURNS SETOF challenge_call_result
LANGUAGE plpgsql AS $$
DECLARE
  v_id integer;
BEGIN
  INSERT INTO challenges (creator_id, amount_cents, game, gamer_tag, phone_number, console, mode,
      platform, status, created_at, updated_at)
    VALUES (p_creator_id, p_amount_cents, p_game, p_gamer_tag, p_phone_number, p_console, p_mode,
      p_platform, 'open', p_now, p_now)
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
CREATE FUNCTION challenge_accept(
  p_challenge_id integer,
  p_acceptor_id integer,
  p_now timestamptz
) RETURNS SETOF challenge_call_result
LANGUAGE plpgsql AS $$
DECLARE
  v_amount bigint;
  v_creator integer;
BEGIN
  UPDATE challenges c
    SET status = 'accepted', acceptor_id = p_acceptor_id, accepted_at = p_now, updated_at = p_now
    WHERE c.id = p_challenge_id AND c.status = 'open' AND c.creator_id <> p_acceptor_id
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
-- Records a result on an accepted challenge with its mail. A completed result pays out: the prize
-- leaves the escrow, the winner receives it less the fee, the house the fee. A disputed one moves
-- no money. The application computes the winner, the prize and the fee, and writes the mail:
-- `p_mails` is a JSON array of outbox rows (dedupe_key, recipient, subject, body, metadata).
CREATE FUNCTION challenge_record_result(
  p_challenge_id integer,
  p_status text,
  p_winner_id integer,
  p_creator_score integer,
  p_acceptor_score integer,
  p_screenshot_url text,
  p_notes text,
  p_dispute_reason text,
  p_submitted_by integer,
  p_prize_cents bigint,
  p_fee_cents bigint,
  p_now timestamptz,
  p_mails jsonb
) RETURNS SETOF challenge_call_result
LANGUAGE plpgsql AS $$
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
$$;
