ALTER TABLE "sessions" ADD COLUMN "place_country" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "place_state" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "place_label" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "state" text;