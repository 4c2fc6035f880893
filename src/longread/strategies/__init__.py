"""Strategies: each turns (question, context, models, options) into an Answer, emitting events."""
