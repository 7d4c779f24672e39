"""The static site: pages rendered from the store with Jinja templates and assets in `site/`."""
