CREATE TABLE "challenge_evidence" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "challenge_evidence_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"challenge_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"statement" text,
	"upload_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "challenge_evidence_not_empty" CHECK ("challenge_evidence"."statement" is not null or "challenge_evidence"."upload_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "player_reports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "player_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"reporter_id" integer NOT NULL,
	"reported_user_id" integer NOT NULL,
	"challenge_id" integer,
	"reason" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_by" integer,
	"resolved_at" timestamp with time zone,
	"resolution_note" text
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"challenge_id" integer,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "review_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "release_cause" text;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "review_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "creator_cancel_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "acceptor_cancel_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "no_show_claimed_by" integer;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "cancel_cause" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspension_reason" text;--> statement-breakpoint
ALTER TABLE "challenge_evidence" ADD CONSTRAINT "challenge_evidence_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "challenge_evidence" ADD CONSTRAINT "challenge_evidence_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "challenge_evidence" ADD CONSTRAINT "challenge_evidence_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "player_reports" ADD CONSTRAINT "player_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "player_reports" ADD CONSTRAINT "player_reports_reported_user_id_users_id_fk" FOREIGN KEY ("reported_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "player_reports" ADD CONSTRAINT "player_reports_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "player_reports" ADD CONSTRAINT "player_reports_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "challenge_evidence_challenge_id_idx" ON "challenge_evidence" USING btree ("challenge_id","id");--> statement-breakpoint
CREATE INDEX "player_reports_open_idx" ON "player_reports" USING btree ("created_at") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "player_reports_reported_user_id_idx" ON "player_reports" USING btree ("reported_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_dedupe_key_key" ON "notifications" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "notifications_user_id_idx" ON "notifications" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id") WHERE read_at is null;--> statement-breakpoint
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_no_show_claimed_by_users_id_fk" FOREIGN KEY ("no_show_claimed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "challenges_review_due_idx" ON "challenges" USING btree ("review_ends_at") WHERE status = 'completed' and released_at is null and review_ends_at is not null;--> statement-breakpoint
CREATE INDEX "challenges_accepted_at_idx" ON "challenges" USING btree ("accepted_at") WHERE status = 'accepted';--> statement-breakpoint
CREATE INDEX "ledger_accounts_under_review_idx" ON "ledger_accounts" USING btree ("user_id") WHERE kind = 'review' and balance_cents <> 0;
--> statement-breakpoint
-- Reports a result on an accepted challenge, as challenge_record_result (0009) did, except where
-- the winner's credit goes: it waits in `review:challenge:{id}` (kind review, owned by the winner)
-- until the review ends at p_review_ends_at or the opponent confirms (DESIGN §10), so that a
-- false result can always be undone in full. The fee goes to the house at once; a reversal
-- brings it back with the credit. challenge_record_result stays for instances of the previous
-- release during a rolling deploy; a later migration drops it.
CREATE FUNCTION challenge_report_result(
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
  p_review_ends_at timestamptz,
  p_mails jsonb,
  p_notifications jsonb
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
      review_ends_at = CASE WHEN p_status = 'completed' THEN p_review_ends_at END,
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
  -- What the players are told in the app (DESIGN §10); the mail above already says it by mail.
  INSERT INTO notifications (user_id, kind, challenge_id, title, body, dedupe_key)
    SELECT n.user_id, n.kind, p_challenge_id, n.title, n.body, n.dedupe_key
      FROM jsonb_to_recordset(p_notifications)
        AS n(user_id integer, kind text, title text, body text, dedupe_key text)
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
      ARRAY['escrow:challenge:' || p_challenge_id, 'review:challenge:' || p_challenge_id,
        'house:fees'],
      ARRAY['escrow', 'review', 'house'], ARRAY[false, false, false],
      ARRAY[NULL, p_winner_id, NULL],
      ARRAY[-p_prize_cents, p_prize_cents - p_fee_cents, p_fee_cents]) p;
END;
$$;
