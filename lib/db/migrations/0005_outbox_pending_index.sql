DROP INDEX "notifications_due_idx";--> statement-breakpoint
CREATE INDEX "notifications_pending_idx" ON "notifications" USING btree ("next_attempt_at") WHERE "notifications"."delivered_at" is null;