CREATE TABLE "card_fraud_warnings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "card_fraud_warnings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"provider" text NOT NULL,
	"provider_warning_id" text NOT NULL,
	"payment_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"fraud_type" text NOT NULL,
	"action" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "card_fraud_warnings_action_known" CHECK ("card_fraud_warnings"."action" in ('refunded', 'locked', 'ignored'))
);
--> statement-breakpoint
CREATE TABLE "card_refunds" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "card_refunds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"payment_id" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"request_key" text,
	"fraud_warning_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider_refund_id" text,
	"failure_reason" text,
	"claimed_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "card_refunds_amount_positive" CHECK ("card_refunds"."amount_cents" > 0),
	CONSTRAINT "card_refunds_status_known" CHECK ("card_refunds"."status" in ('pending', 'succeeded', 'failed')),
	CONSTRAINT "card_refunds_ended_whole" CHECK (("card_refunds"."status" = 'pending') = ("card_refunds"."completed_at" is null))
);
--> statement-breakpoint
CREATE TABLE "sandbox_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_intent_id" text NOT NULL,
	"refund_key" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_refunds_refund_key" UNIQUE("refund_key")
);
--> statement-breakpoint
ALTER TABLE "card_disputes" ADD COLUMN "reported_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "card_fraud_warnings" ADD CONSTRAINT "card_fraud_warnings_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_fraud_warnings" ADD CONSTRAINT "card_fraud_warnings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_refunds" ADD CONSTRAINT "card_refunds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_refunds" ADD CONSTRAINT "card_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_refunds" ADD CONSTRAINT "card_refunds_fraud_warning_id_card_fraud_warnings_id_fk" FOREIGN KEY ("fraud_warning_id") REFERENCES "public"."card_fraud_warnings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_refunds" ADD CONSTRAINT "sandbox_refunds_payment_intent_id_sandbox_payments_id_fk" FOREIGN KEY ("payment_intent_id") REFERENCES "public"."sandbox_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_fraud_warnings_provider_warning_key" ON "card_fraud_warnings" USING btree ("provider","provider_warning_id");--> statement-breakpoint
CREATE INDEX "card_fraud_warnings_payment_id_idx" ON "card_fraud_warnings" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "card_refunds_user_id_idx" ON "card_refunds" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "card_refunds_payment_id_idx" ON "card_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "card_refunds_request_key" ON "card_refunds" USING btree ("user_id","request_key","payment_id") WHERE "card_refunds"."request_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "card_refunds_fraud_warning_key" ON "card_refunds" USING btree ("fraud_warning_id") WHERE "card_refunds"."fraud_warning_id" is not null;--> statement-breakpoint
CREATE INDEX "card_refunds_pending_idx" ON "card_refunds" USING btree ("claimed_until") WHERE "card_refunds"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "sandbox_refunds_payment_intent_idx" ON "sandbox_refunds" USING btree ("payment_intent_id");