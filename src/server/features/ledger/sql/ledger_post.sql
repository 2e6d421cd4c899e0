-- Posts one transfer: its entries balance to zero, each account is locked in key order, every
-- posting records the balance after it, and an idempotency key already used answers the first
-- transfer again (moving nothing) or refuses a different one.
-- Last defined by migrations/0009_money_functions.sql. This file is the function's current text, checked
-- against the migrated database by ../sql-functions.test.ts: a change is a new migration with
-- the new text, and this file updated to it.
CREATE OR REPLACE FUNCTION public.ledger_post(p_idempotency_key text, p_kind text, p_reference_type text, p_reference_id text, p_actor_user_id integer, p_memo text, p_reverses_transfer_id bigint, p_account_keys text[], p_account_kinds text[], p_allow_negative boolean[], p_user_ids integer[], p_amounts_cents bigint[])
 RETURNS TABLE(transfer_id bigint, account_key text, account_user_id integer, balance_cents bigint)
 LANGUAGE plpgsql
AS $function$
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
$function$
