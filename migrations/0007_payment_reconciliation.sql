ALTER TABLE "payments" ADD COLUMN "next_check_at" timestamp with time zone DEFAULT now() + interval '2 minutes' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "checks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "payments_next_check_idx" ON "payments" USING btree ("next_check_at") WHERE "payments"."status" = 'pending';