apps/smpi/platforms/make_platform.py bgp --ranks 1024 --shm-costs on --placement block --sharing fair
