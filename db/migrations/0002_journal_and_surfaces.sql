CREATE TABLE `journal` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`at` integer NOT NULL,
	`surface_id` text NOT NULL,
	`via` text NOT NULL,
	`action` text,
	`input` text NOT NULL,
	`call` text,
	`observation` text,
	`outcome` text NOT NULL,
	`http_status` integer NOT NULL,
	`latency_ms` integer NOT NULL,
	`fault` text
);
--> statement-breakpoint
CREATE INDEX `journal_session` ON `journal` (`session_id`,`id`);--> statement-breakpoint
CREATE INDEX `journal_at` ON `journal` (`at`);--> statement-breakpoint
CREATE TABLE `surfaces` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL
);
