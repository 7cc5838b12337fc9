"""The knowledge base: pitfall entries, their SQLite store, and hybrid retrieval. Knows nothing of Slack."""
