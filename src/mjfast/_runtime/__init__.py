"""How work runs (private): threads and the build's configuration (``threads``), seeds and
their JSON form (``seeding``), progress bars and time-sized chunks (``progress``), the Dask
backend (``dask``), and the argument checks every public function shares (``validation``)."""
