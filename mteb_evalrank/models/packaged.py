def install_packaged_loaders() -> None:
    pass
