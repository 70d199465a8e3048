"""Notifications for apps: the account event stream and notification webhooks."""
