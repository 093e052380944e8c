CREATE TABLE `toolset_training_blobs` (
	`training_id` text NOT NULL,
	`kind` text NOT NULL,
	`part` integer NOT NULL,
	`data` blob NOT NULL,
	PRIMARY KEY(`training_id`, `kind`, `part`),
	FOREIGN KEY (`training_id`) REFERENCES `toolset_trainings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `toolset_trainings` (
	`id` text PRIMARY KEY NOT NULL,
	`toolset_id` text NOT NULL,
	`version` integer NOT NULL,
	`status` text NOT NULL,
	`options` text NOT NULL,
	`data` text,
	`progress` text,
	`report` text,
	`error` text,
	`weights_bytes` integer,
	`weights_sha256` text,
	`owner_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`toolset_id`) REFERENCES `toolsets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `toolset_trainings_version` ON `toolset_trainings` (`toolset_id`,`version`);