CREATE TABLE "cleared_account_links" (
	"low_user_id" integer NOT NULL,
	"high_user_id" integer NOT NULL,
	"note" text NOT NULL,
	"cleared_by" integer,
	"cleared_at" timestamp with time zone NOT NULL,
	CONSTRAINT "cleared_account_links_low_user_id_high_user_id_pk" PRIMARY KEY("low_user_id","high_user_id"),
	CONSTRAINT "cleared_account_links_order" CHECK ("cleared_account_links"."low_user_id" < "cleared_account_links"."high_user_id")
);
--> statement-breakpoint
CREATE TABLE "device_sign_ins" (
	"user_id" integer NOT NULL,
	"device_hash" text NOT NULL,
	"first_signed_in_at" timestamp with time zone NOT NULL,
	"last_signed_in_at" timestamp with time zone NOT NULL,
	"user_agent" text,
	"ip_address" text,
	CONSTRAINT "device_sign_ins_user_id_device_hash_pk" PRIMARY KEY("user_id","device_hash")
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "device_hash" text;--> statement-breakpoint
ALTER TABLE "cleared_account_links" ADD CONSTRAINT "cleared_account_links_low_user_id_users_id_fk" FOREIGN KEY ("low_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleared_account_links" ADD CONSTRAINT "cleared_account_links_high_user_id_users_id_fk" FOREIGN KEY ("high_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleared_account_links" ADD CONSTRAINT "cleared_account_links_cleared_by_users_id_fk" FOREIGN KEY ("cleared_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_sign_ins" ADD CONSTRAINT "device_sign_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cleared_account_links_high_user_id_idx" ON "cleared_account_links" USING btree ("high_user_id");--> statement-breakpoint
CREATE INDEX "device_sign_ins_device_idx" ON "device_sign_ins" USING btree ("device_hash","last_signed_in_at");--> statement-breakpoint
CREATE INDEX "device_sign_ins_last_signed_in_at_idx" ON "device_sign_ins" USING btree ("last_signed_in_at");--> statement-breakpoint
CREATE INDEX "users_admins_idx" ON "users" USING btree ("id") WHERE "users"."is_admin";--> statement-breakpoint
-- Quick match passes over the challenges of accounts linked to the player by a device
-- (docs/accounts.md#devices). The new argument has a default, so that a server still running the
-- previous release calls the same function with seven.
DROP FUNCTION public.challenge_quick_match(integer, bigint, text, text, text, text, timestamp with time zone);
--> statement-breakpoint
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
