CREATE TABLE "payment_webhook_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_webhook_events_pkey" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"provider" text NOT NULL,
	"method" text NOT NULL,
	"provider_payment_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"order_id" text,
	"requested_amount_cents" bigint NOT NULL,
	"credited_amount_cents" bigint,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"provider_status" text NOT NULL,
	"pay_currency" text,
	"pay_amount" text,
	"pay_address" text,
	"actually_paid" text,
	"expires_at" timestamp with time zone,
	"ledger_transfer_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"credited_at" timestamp with time zone,
	CONSTRAINT "payments_requested_positive" CHECK ("payments"."requested_amount_cents" > 0),
	CONSTRAINT "payments_status_known" CHECK ("payments"."status" in ('pending', 'credited', 'partially_paid', 'expired', 'failed')),
	CONSTRAINT "payments_method_known" CHECK ("payments"."method" in ('card', 'crypto')),
	CONSTRAINT "payments_credited_consistent" CHECK (("payments"."status" = 'credited') = ("payments"."credited_amount_cents" is not null and "payments"."ledger_transfer_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "sandbox_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"client_secret_hash" text,
	"pay_currency" text,
	"pay_amount" text,
	"pay_address" text,
	"actually_paid" text,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_ledger_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("ledger_transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_payments" ADD CONSTRAINT "sandbox_payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_payment_id_key" ON "payments" USING btree ("provider","provider_payment_id");--> statement-breakpoint
CREATE INDEX "payments_user_id_idx" ON "payments" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "payments_status_idx" ON "payments" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "sandbox_payments_user_id_idx" ON "sandbox_payments" USING btree ("user_id");