ALTER TABLE "payouts" DROP CONSTRAINT "payouts_decision_consistent";--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "stage" text DEFAULT 'review' NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "stage_reason" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "extra_id" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "approved_by" integer;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "provider_payout_id" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "provider_batch_id" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "coin_amount" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "coin_rate" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "tx_hash" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "claim_token" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
-- Payouts made before the sender existed: decided ones end where their status did, pending ones
-- wait for an admin as they always have.
UPDATE "payouts" SET "stage" = "status" WHERE "status" <> 'pending';--> statement-breakpoint
UPDATE "payouts" SET "stage_reason" = 'details to check by hand' WHERE "status" = 'pending';--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payouts_sender_due_idx" ON "payouts" USING btree ("next_attempt_at") WHERE "payouts"."stage" in ('queued', 'sending', 'sent');--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_provider_payout_id_idx" ON "payouts" USING btree ("provider","provider_payout_id");--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_stage_consistent" CHECK (case "payouts"."status" when 'completed' then "payouts"."stage" = 'completed'
        when 'failed' then "payouts"."stage" = 'failed'
        else "payouts"."stage" in ('review', 'queued', 'sending', 'sent') end);--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_destination_whole" CHECK (("payouts"."currency" is null) = ("payouts"."address" is null));--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_decision_consistent" CHECK (("payouts"."status" = 'pending') = ("payouts"."decided_at" is null)
        and ("payouts"."status" <> 'pending' or "payouts"."decided_by" is null)
        and ("payouts"."status" = 'completed') = ("payouts"."completed_at" is not null)
        and ("payouts"."status" = 'failed') = ("payouts"."failure_reason" is not null));