"""Dataset builders (raw sources → Hugging Face Hub layout) and dataset cards, one folder per dataset."""
