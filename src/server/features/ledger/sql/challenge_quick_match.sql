-- Quick match: accepts the oldest open public challenge of another player on the same terms, or
-- opens one; players asking at once meet each other. The challenges of `p_passed_over` (accounts
-- linked to the player by a device, docs/accounts.md#devices) are passed over.
-- Last defined by migrations/0025_device_identity.sql. This file is the function's current text, checked
-- against the migrated database by ../sql-functions.test.ts: a change is a new migration with
-- the new text, and this file updated to it.
CREATE OR REPLACE FUNCTION public.challenge_quick_match(p_player_id integer, p_amount_cents bigint, p_game text, p_gamer_tag text, p_phone_number text, p_console text, p_now timestamp with time zone, p_passed_over integer[] DEFAULT '{}'::integer[])
 RETURNS SETOF challenge_call_result
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_id integer;
BEGIN
  PERFORM pg_advisory_xact_lock(20813,
    hashtext(lower(p_game) || '|' || p_console || '|' || p_amount_cents::text));
  LOOP
    SELECT c.id INTO v_id FROM challenges c
      WHERE c.status = 'open' AND c.opponent_id IS NULL AND lower(c.game) = lower(p_game)
        AND c.console = p_console AND c.amount_cents = p_amount_cents
        AND c.creator_id <> p_player_id AND c.creator_id <> ALL (p_passed_over)
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
$function$
