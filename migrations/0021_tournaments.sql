CREATE TABLE "tournament_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tournament_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tournament_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'entered' NOT NULL,
	"place" integer,
	"prize_cents" bigint,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"left_at" timestamp with time zone,
	CONSTRAINT "tournament_entries_status_known" CHECK ("tournament_entries"."status" in ('entered', 'left', 'refunded'))
);
--> statement-breakpoint
CREATE TABLE "tournament_match_evidence" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tournament_match_evidence_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"match_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"statement" text,
	"upload_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tournament_match_evidence_not_empty" CHECK ("tournament_match_evidence"."statement" is not null or "tournament_match_evidence"."upload_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "tournament_matches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tournament_matches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tournament_id" integer NOT NULL,
	"round" integer NOT NULL,
	"slot" integer NOT NULL,
	"player_a_id" integer,
	"player_b_id" integer,
	"status" text DEFAULT 'waiting' NOT NULL,
	"winner_id" integer,
	"score_a" integer,
	"score_b" integer,
	"screenshot_url" text,
	"notes" text,
	"dispute_reason" text,
	"reported_by" integer,
	"no_show_claimed_by" integer,
	"ready_at" timestamp with time zone,
	"reported_at" timestamp with time zone,
	"review_ends_at" timestamp with time zone,
	"stood_at" timestamp with time zone,
	"stand_cause" text,
	CONSTRAINT "tournament_matches_status_known" CHECK ("tournament_matches"."status" in ('waiting', 'playing', 'reported', 'disputed', 'done'))
);
--> statement-breakpoint
CREATE TABLE "tournaments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tournaments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"game" text NOT NULL,
	"console" text NOT NULL,
	"entry_fee_cents" bigint NOT NULL,
	"size" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"prize_split" integer[] NOT NULL,
	"allow_byes" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"seed" text,
	"created_by" integer NOT NULL,
	"winner_id" integer,
	"pool_cents" bigint,
	"fee_cents" bigint,
	"cancel_cause" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "tournaments_entry_fee_positive" CHECK ("tournaments"."entry_fee_cents" > 0),
	CONSTRAINT "tournaments_size_known" CHECK ("tournaments"."size" in (4, 8, 16, 32, 64)),
	CONSTRAINT "tournaments_status_known" CHECK ("tournaments"."status" in ('open', 'live', 'finished', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "tournament_entries" ADD CONSTRAINT "tournament_entries_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "public"."tournaments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_entries" ADD CONSTRAINT "tournament_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_match_evidence" ADD CONSTRAINT "tournament_match_evidence_match_id_tournament_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."tournament_matches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_match_evidence" ADD CONSTRAINT "tournament_match_evidence_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_match_evidence" ADD CONSTRAINT "tournament_match_evidence_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_matches" ADD CONSTRAINT "tournament_matches_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "public"."tournaments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_matches" ADD CONSTRAINT "tournament_matches_player_a_id_users_id_fk" FOREIGN KEY ("player_a_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_matches" ADD CONSTRAINT "tournament_matches_player_b_id_users_id_fk" FOREIGN KEY ("player_b_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_matches" ADD CONSTRAINT "tournament_matches_winner_id_users_id_fk" FOREIGN KEY ("winner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_matches" ADD CONSTRAINT "tournament_matches_reported_by_users_id_fk" FOREIGN KEY ("reported_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_matches" ADD CONSTRAINT "tournament_matches_no_show_claimed_by_users_id_fk" FOREIGN KEY ("no_show_claimed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_winner_id_users_id_fk" FOREIGN KEY ("winner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tournament_entries_one_per_player" ON "tournament_entries" USING btree ("tournament_id","user_id") WHERE status = 'entered';--> statement-breakpoint
CREATE INDEX "tournament_entries_user_id_idx" ON "tournament_entries" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "tournament_match_evidence_match_id_idx" ON "tournament_match_evidence" USING btree ("match_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "tournament_matches_position_key" ON "tournament_matches" USING btree ("tournament_id","round","slot");--> statement-breakpoint
CREATE INDEX "tournament_matches_review_due_idx" ON "tournament_matches" USING btree ("review_ends_at") WHERE status = 'reported';--> statement-breakpoint
CREATE INDEX "tournaments_status_starts_at_idx" ON "tournaments" USING btree ("status","starts_at");