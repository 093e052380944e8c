CREATE TABLE `model_spend` (
	`kind` text NOT NULL,
	`subject_id` text NOT NULL,
	`owner_id` text,
	`estimate` integer NOT NULL,
	`model_calls` integer DEFAULT 0 NOT NULL,
	`overshoot` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`kind`, `subject_id`)
);
--> statement-breakpoint
ALTER TABLE `jobs` ADD `owner_id` text;--> statement-breakpoint
CREATE INDEX `jobs_owner_status` ON `jobs` (`owner_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `jobs_status_updated` ON `jobs` (`status`,`updated_at`);