%%MatrixMarket matrix coordinate real general
4 3 5
1 1 5.0
2 2 6.0
