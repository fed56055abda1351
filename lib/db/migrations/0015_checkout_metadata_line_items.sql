ALTER TABLE "checkouts" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "line_items" jsonb DEFAULT '[]'::jsonb NOT NULL;