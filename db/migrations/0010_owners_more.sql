ALTER TABLE `docsets` ADD `owner_id` text;--> statement-breakpoint
ALTER TABLE `draft_runs` ADD `owner_id` text;--> statement-breakpoint
ALTER TABLE `draft_watches` ADD `owner_id` text;--> statement-breakpoint
ALTER TABLE `ste_runs` ADD `owner_id` text;--> statement-breakpoint
ALTER TABLE `ste_schedules` ADD `owner_id` text;--> statement-breakpoint
ALTER TABLE `toolsets` ADD `owner_id` text;