%%MatrixMarket matrix coordinate real general
5 3 2
1 1 5.0
5 2 6.0
