CREATE TABLE "card_disputes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "card_disputes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"provider" text NOT NULL,
	"provider_dispute_id" text NOT NULL,
	"payment_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"reason" text NOT NULL,
	"provider_status" text NOT NULL,
	"outcome" text DEFAULT 'open' NOT NULL,
	"chargeback_transfer_id" bigint NOT NULL,
	"evidence_due_by" timestamp with time zone,
	"evidence" jsonb,
	"evidence_staged_at" timestamp with time zone,
	"evidence_submitted_at" timestamp with time zone,
	"evidence_submitted_by" integer,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "card_disputes_amount_positive" CHECK ("card_disputes"."amount_cents" > 0),
	CONSTRAINT "card_disputes_closed_whole" CHECK (("card_disputes"."outcome" = 'open') = ("card_disputes"."closed_at" is null))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "money_locked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "money_lock_reason" text;--> statement-breakpoint
ALTER TABLE "card_disputes" ADD CONSTRAINT "card_disputes_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_disputes" ADD CONSTRAINT "card_disputes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_disputes" ADD CONSTRAINT "card_disputes_evidence_submitted_by_users_id_fk" FOREIGN KEY ("evidence_submitted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_disputes_provider_dispute_key" ON "card_disputes" USING btree ("provider","provider_dispute_id");--> statement-breakpoint
CREATE UNIQUE INDEX "card_disputes_payment_key" ON "card_disputes" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "card_disputes_user_id_idx" ON "card_disputes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "card_disputes_open_idx" ON "card_disputes" USING btree ("evidence_due_by") WHERE "card_disputes"."outcome" = 'open';--> statement-breakpoint
CREATE INDEX "ledger_accounts_debts_idx" ON "ledger_accounts" USING btree ("user_id") WHERE kind = 'receivable' and balance_cents <> 0;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_receivable_not_positive" CHECK ("ledger_accounts"."kind" <> 'receivable' or "ledger_accounts"."balance_cents" <= 0);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_money_lock_whole" CHECK (("users"."money_locked_at" is null) = ("users"."money_lock_reason" is null));